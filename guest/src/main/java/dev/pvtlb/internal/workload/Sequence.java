package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import java.util.ArrayDeque;
import java.util.List;

/** A task program that is a fixed list of operations, run once in order. */
public final class Sequence implements Program {
    private final ArrayDeque<Op> ops;

    public Sequence(List<Op> ops) {
        this.ops = new ArrayDeque<>(ops);
    }

    @Override
    public Op next(Task task) {
        return ops.poll();
    }
}

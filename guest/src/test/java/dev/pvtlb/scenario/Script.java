package dev.pvtlb.scenario;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import java.util.ArrayDeque;
import java.util.List;

/** A task program given as a fixed list of operations, for scripted scenario tests. */
public final class Script implements Program {
    private final ArrayDeque<Op> ops;

    public Script(Op... ops) {
        this.ops = new ArrayDeque<>(List.of(ops));
    }

    @Override
    public Op next(Task task) {
        return ops.poll();
    }
}

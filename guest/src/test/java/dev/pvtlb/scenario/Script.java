package dev.pvtlb.scenario;

import dev.pvtlb.sched.Op;
import dev.pvtlb.sched.Program;
import dev.pvtlb.sched.Task;
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

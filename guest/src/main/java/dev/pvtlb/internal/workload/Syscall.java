package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.smp.KernelPath;
import java.util.function.Function;

/** A system call: pushes its kernel path (timed into a recorder if given) and is done. */
public final class Syscall implements Op {
    private final Function<Task, KernelPath> path;
    private final LatencyRecorder recorder;

    public Syscall(Function<Task, KernelPath> path, LatencyRecorder recorder) {
        this.path = path;
        this.recorder = recorder;
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        KernelPath p = path.apply(task);
        task.opDone();
        cpu.call(recorder == null ? p : new Timed(p, recorder));
        return 0;
    }

    /** Measures a kernel path from its first step to its return, in virtual time. */
    private static final class Timed extends InternalPath {
        private final KernelPath inner;
        private final LatencyRecorder recorder;
        private long start;

        Timed(KernelPath inner, LatencyRecorder recorder) {
            this.inner = inner;
            this.recorder = recorder;
        }

        @Override
        public long step(KernelCpu cpu) {
            long now = cpu.kernel().engine().now();
            if (pc == 0) {
                start = now;
                pc = 1;
                cpu.call(inner);
                return 0;
            }
            recorder.addNs(now - start);
            cpu.ret();
            return 0;
        }

        @Override
        public String name() {
            return inner.name();
        }
    }
}

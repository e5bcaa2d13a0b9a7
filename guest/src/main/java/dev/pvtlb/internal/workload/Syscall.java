package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.AroundCall;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.internal.kernel.MmapLockedCall;
import dev.pvtlb.internal.kernel.MmapLockHold;
import dev.pvtlb.internal.kernel.MmapLocking;
import dev.pvtlb.smp.KernelPath;
import java.util.function.Function;

/**
 * A system call: pushes its kernel path (timed into a recorder if given) and is done. With
 * {@code mmapLock=rwsem}, a path that takes the mmap_lock ({@link InternalPath#mmapLock()}) is
 * entered only once the task holds it; a task that must wait sleeps and retries this step when
 * woken, and the time it slept counts in the call's latency, as a caller of munmap sees it.
 */
public final class Syscall implements Op {
    private final Function<Task, KernelPath> path;
    private final LatencyRecorder recorder;
    /** The path, made at the first attempt of a call (a sleeper's retry enters the same one). */
    private KernelPath made;
    private long firstAttempt = -1;

    public Syscall(Function<Task, KernelPath> path, LatencyRecorder recorder) {
        this.path = path;
        this.recorder = recorder;
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        if (made == null) {
            made = path.apply(task);
            firstAttempt = cpu.kernel().engine().now();
        }
        long cost = 0;
        KernelPath p = made;
        MmapLockHold use = p instanceof InternalPath ip && cpu.kernel().knobs().mmapLock ? ip.mmapLock() : MmapLockHold.NONE;
        if (use != MmapLockHold.NONE) {
            if (task.mmapLockHeld() == MmapLockHold.NONE) {
                cost = MmapLocking.lock(cpu, task, use);
                if (task.mmapLockHeld() == MmapLockHold.NONE) {
                    // Spinning: this step runs again after the PAUSE. Asleep: once it is granted.
                    return cost;
                }
            }
            p = new MmapLockedCall(p, task);
        }
        task.opDone();
        made = null; // a program may issue this op again: the next call makes its path anew
        cpu.call(recorder == null ? p : new Timed(p, recorder, firstAttempt));
        return cost;
    }

    /** Measures a kernel path from the call's first attempt to its return, in virtual time. */
    private static final class Timed extends AroundCall {
        private final LatencyRecorder recorder;
        private final long start;

        Timed(KernelPath inner, LatencyRecorder recorder, long start) {
            super(inner);
            this.recorder = recorder;
            this.start = start;
        }

        @Override
        protected long returned(KernelCpu cpu) {
            recorder.addNs(cpu.kernel().engine().now() - start);
            return 0;
        }
    }
}

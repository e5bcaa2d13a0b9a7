package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.mm.PageFault;
import dev.pvtlb.internal.sched.Op;
import dev.pvtlb.internal.sched.Task;
import dev.pvtlb.smp.Cpu;
import java.util.SplittableRandom;

/**
 * A batch of user-mode memory accesses over {@code pages} pages from {@code base}: random or
 * sequential pages, a fraction of them stores. The batch runs as one step without allocating
 * (DESIGN.md rule 6) and yields at the engine's horizon, so an IPI due on this CPU is taken
 * between two accesses; a faulting access is retried after the fault.
 */
public final class Touch implements Op {
    private final long base;
    private final int pages;
    private final double writeFraction;
    private final boolean sequential;
    private final LatencyRecorder recorder;
    private long remaining;
    private long nextPage;
    private long pendingVa = -1;
    private boolean pendingWrite;

    public Touch(long base, int pages, long accesses, double writeFraction, boolean sequential, LatencyRecorder recorder) {
        this.base = base;
        this.pages = pages;
        this.remaining = accesses;
        this.writeFraction = writeFraction;
        this.sequential = sequential;
        this.recorder = recorder;
    }

    @Override
    public long run(Cpu cpu, Task task) {
        long now = cpu.kernel().engine().now();
        long horizon = cpu.kernel().engine().horizon();
        long limitPs = horizon == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, horizon - now) * 1000;
        SplittableRandom r = task.random();
        long ps = 0;
        long done = 0;
        while (remaining > 0) {
            long va;
            boolean write;
            if (pendingVa >= 0) {
                va = pendingVa;
                write = pendingWrite;
            } else {
                long page = sequential ? nextPage++ % pages : r.nextInt(pages);
                va = base + (page << 12);
                write = writeFraction >= 1.0 || (writeFraction > 0 && r.nextDouble() < writeFraction);
            }
            long c = cpu.userAccess(va, write);
            if (c < 0) {
                pendingVa = va;
                pendingWrite = write;
                cpu.call(new PageFault(task.mm(), va, write));
                break;
            }
            pendingVa = -1;
            ps += c;
            done++;
            remaining--;
            if (ps >= limitPs) {
                break;
            }
        }
        if (remaining == 0) {
            task.opDone();
        }
        long ns = (ps + 999) / 1000;
        if (recorder != null && done > 0) {
            recorder.addBatch(ps, done);
        }
        return ns;
    }
}

package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TimeCategory;

/**
 * How long one CPU's step takes and what it is booked as. A step's cost is what it costs alone;
 * an SMT sibling executing as the step begins slows it ({@link SmtSharing}). A fast-level batch
 * that ran several steps as one (Touch) returns a cost already scaled, part of it kernel time
 * (faults taken inside the batch), and says so with {@link #costScaled}.
 */
public final class StepTime {
    private final int cpu;
    private final CpuTime cpuTime;
    /** The core's execution resources shared with its SMT siblings. */
    private SmtSharing smt = SmtSharing.NONE;
    /** The step in progress runs at 1000/this of its speed alone (1000: no sibling executing as it began). */
    private long sharePermille = 1000;
    /** The step in progress returned a cost already scaled, {@link #kernelNs} of it kernel time. */
    private boolean costScaled;
    private long kernelNs;

    StepTime(int cpu, CpuTime cpuTime) {
        this.cpu = cpu;
        this.cpuTime = cpuTime;
    }

    /** Wired once by the kernel after every CPU exists: the siblings whose execution slows this one. */
    void smt(SmtSharing smt) {
        this.smt = smt;
    }

    /** A step begins: how much its siblings slow it is fixed now. */
    void begin() {
        sharePermille = smt.permilleNow();
        costScaled = false;
    }

    /**
     * How much slower than alone the step in progress runs, in thousandths (1000 when no SMT
     * sibling was executing as it began): the step's cost is scaled by it, and a batch that
     * measures its own latency or stops at the engine's horizon uses it (see SmtSharing).
     */
    public long sharePermille() {
        return sharePermille;
    }

    /**
     * The step in progress returns a cost already scaled by SMT sharing, of which {@code kernelNs}
     * was spent in the kernel (faults taken inside a batch of user accesses, at the fast level).
     */
    public void costScaled(long kernelNs) {
        this.costScaled = true;
        this.kernelNs = kernelNs;
    }

    /** Books the step that began at {@code now} and cost {@code cost} alone as {@code work}; returns how long it took. */
    long book(TimeCategory work, long now, long cost) {
        if (costScaled) {
            // A fast-level batch of user accesses that took faults within it: their part of the
            // step is kernel time, booked after the accesses (Touch, PageFault.inline).
            long k = Math.min(cost, kernelNs);
            cpuTime.book(cpu, work, now, now + cost - k);
            cpuTime.book(cpu, TimeCategory.KERNEL, now + cost - k, now + cost);
            return cost;
        }
        long scaled = SmtSharing.scale(cost, sharePermille);
        cpuTime.book(cpu, work, now, now + scaled);
        return scaled;
    }

    void reset() {
        sharePermille = 1000;
    }
}

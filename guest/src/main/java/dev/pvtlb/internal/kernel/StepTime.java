package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TimeCategory;

/**
 * How long one CPU's step takes and what it is booked as. A step's cost is what it costs alone;
 * an SMT sibling executing slows it while it executes ({@link SmtSharing}): on a CPU that shares
 * its core, the step in progress is kept here, its end moved by {@link #rescale} when a sibling
 * starts or stops executing, and booked when it ends. A fast-level batch
 * that ran several steps as one (Touch) returns a cost already scaled, part of it kernel time
 * (faults taken inside the batch), and says so with {@link #costScaled}.
 */
public final class StepTime {
    private final int cpu;
    private final CpuTime cpuTime;
    /** When its CPU's next step is due: moved with the step in progress. */
    private final StepSchedule schedule;
    /** The core's execution resources shared with its SMT siblings. */
    private SmtSharing smt = SmtSharing.NONE;
    /** The step in progress runs at 1000/this of its speed alone (1000: no sibling executing as it began). */
    private long sharePermille = 1000;
    /** The step in progress returned a cost already scaled, {@link #kernelNs} of it kernel time. */
    private boolean costScaled;
    private long kernelNs;
    /**
     * The step in progress of a CPU that shares its core (null: none), booked at its end with the
     * costScaled and kernelNs it set (they last until the next step begins).
     */
    private TimeCategory work;
    private long start;
    private long end;

    StepTime(int cpu, CpuTime cpuTime, StepSchedule schedule) {
        this.cpu = cpu;
        this.cpuTime = cpuTime;
        this.schedule = schedule;
    }

    /** Wired once by the kernel after every CPU exists: the siblings whose execution slows this one. */
    void smt(SmtSharing smt) {
        this.smt = smt;
    }

    /**
     * Under a host topology with SMT a vCPU's core is its pCPU's: it runs {@code permille}
     * thousandths slower while {@code siblingExecuting} says a vCPU (of any VM) executes on a
     * sibling pCPU, and {@code rescaleSiblings} re-paces theirs when this one starts or stops
     * executing. Replaces the sharing with the vCPUs of its virtual core.
     */
    public void shareHostCore(java.util.function.BooleanSupplier siblingExecuting, java.util.function.LongConsumer rescaleSiblings,
            long permille) {
        smt(SmtSharing.of(new java.util.function.BooleanSupplier[] {siblingExecuting},
                new java.util.function.LongConsumer[] {rescaleSiblings}, permille));
    }

    /** A step begins: how much its siblings slow it is what they do now. */
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

    /**
     * The step that began at {@code now} and cost {@code cost} alone is {@code work}: returns how
     * long it takes at the pace it begins with. Booked now, or, on a CPU that shares its core,
     * when it ends ({@link #ended}).
     */
    long book(TimeCategory work, long now, long cost) {
        long took = costScaled ? cost : SmtSharing.scale(cost, sharePermille);
        if (smt.shares()) {
            this.work = work;
            start = now;
            end = now + took;
            return took;
        }
        bookInterval(work, costScaled, kernelNs, now, now + took);
        return took;
    }

    private void bookInterval(TimeCategory work, boolean scaled, long kernelNs, long from, long to) {
        if (scaled) {
            // A fast-level batch of user accesses that took faults within it: their part of the
            // step is kernel time, booked after the accesses (Touch, PageFault.inline).
            long k = Math.min(to - from, kernelNs);
            cpuTime.book(cpu, work, from, to - k);
            cpuTime.book(cpu, TimeCategory.KERNEL, to - k, to);
        } else {
            cpuTime.book(cpu, work, from, to);
        }
    }

    /** The CPU's step in progress, if any, ended at {@code now}: booked. */
    void ended(long now) {
        if (work != null) {
            bookInterval(work, costScaled, kernelNs, start, now);
            work = null;
        }
    }

    /**
     * A sibling started or stopped executing at {@code now}: the step in progress, if any, runs at
     * the pace that holds from now, so its remaining time is scaled by new / old factor and its
     * end moves.
     */
    public void rescale(long now) {
        if (work == null || end <= now) {
            return;
        }
        long p = smt.permilleNow();
        if (p != sharePermille) {
            end = now + ((end - now) * p + sharePermille / 2) / sharePermille;
            sharePermille = p;
            schedule.move(end);
        }
    }

    /** Whether its CPU has SMT siblings whose pace it changes (and that change its own). */
    boolean sharesCore() {
        return smt.shares();
    }

    /** Its CPU is {@code executing} at {@code now}: its siblings' steps in progress change pace if that changed. */
    void executing(boolean executing, long now) {
        smt.executing(executing, now);
    }

    void reset() {
        sharePermille = 1000;
        work = null;
        smt.reset();
        schedule.reset();
    }
}

package dev.pvtlb.internal.kernel;

import java.util.function.BooleanSupplier;

/**
 * A logical CPU's share of its core's execution resources, as Intel documents Hyper-Threading
 * (D. Marr et al., "Hyper-Threading Technology Architecture and Microarchitecture", Intel
 * Technology Journal 6(1), Feb 2002): the two logical processors of a core share its
 * out-of-order engine and execution units, so each runs slower while the other executes (the
 * paper's up to 30% more throughput from two threads is each at about 0.65 of its speed alone),
 * and a flush handler on one thread slows the other.
 *
 * <p>A step's cost is multiplied by {@code smt.share.factor} when any sibling of its CPU
 * (same core, other thread) is executing as the step begins: not blocked, and not descheduled by
 * the host. A blocked CPU leaves the core to its sibling: halted in HLT (the paper's single-task
 * modes: a halted logical processor gives the whole core to the other), or spinning in
 * csd_lock_wait(), whose cpu_relax() loop executes PAUSE on x86, which Intel's Optimization
 * Reference Manual recommends in spin-wait loops on Hyper-Threading processors so that the spinning
 * thread leaves the shared execution resources to its sibling. A spin the model runs as steps of
 * work (not blocked) counts as executing. The sibling's state is read once, when the step starts,
 * so a step does not stretch when a sibling wakes during it, nor shrink when the sibling stops: a
 * long step that begins during a sibling's short one is slowed whole. That is the model's grain,
 * not the hardware's (which shares the core only while both execute), and it decides
 * concurrent-flush's 16-thread point in docs/validation.md, where the series' local flush runs
 * while an SMT-sibling target takes the IPI. Only the guest's topology is modelled: a vCPU's
 * siblings are the vCPUs of its virtual core.
 *
 * <p>The factor is kept in thousandths and applied in integer arithmetic (rounded half up), so a
 * run is exactly reproducible; a CPU without siblings, or a factor of 1, keeps every cost as it is.
 */
public final class SmtSharing {
    /** No sibling to share with (a core of one thread, or sharing turned off). */
    static final SmtSharing NONE = new SmtSharing(new BooleanSupplier[0], 1000);

    /** Whether each sibling is executing now (KernelCpu.executing()). */
    private final BooleanSupplier[] siblings;
    private final long permille;

    private SmtSharing(BooleanSupplier[] siblings, long permille) {
        this.siblings = siblings;
        this.permille = permille;
    }

    /**
     * The sharing of a CPU whose other threads on its core ({@code siblings}: whether each is
     * executing) slow it by {@code permille} thousandths while one of them executes.
     */
    static SmtSharing of(BooleanSupplier[] siblings, long permille) {
        return siblings.length == 0 || permille <= 1000 ? NONE : new SmtSharing(siblings.clone(), permille);
    }

    /** The factor, in thousandths, for a step that starts now: 1000 unless a sibling is executing. */
    long permilleNow() {
        for (BooleanSupplier s : siblings) {
            if (s.getAsBoolean()) {
                return permille;
            }
        }
        return 1000;
    }

    /** {@code t * permille / 1000} rounded half up, without overflow for any step ({@code t} in ns or ps). */
    public static long scale(long t, long permille) {
        return permille == 1000 ? t : t / 1000 * permille + (t % 1000 * permille + 500) / 1000;
    }
}

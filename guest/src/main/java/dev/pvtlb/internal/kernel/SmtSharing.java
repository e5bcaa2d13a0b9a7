package dev.pvtlb.internal.kernel;

import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * A logical CPU's share of its core's execution resources, as Intel documents Hyper-Threading
 * (D. Marr et al., "Hyper-Threading Technology Architecture and Microarchitecture", Intel
 * Technology Journal 6(1), Feb 2002): the two logical processors of a core share its
 * out-of-order engine and execution units, so each runs slower while the other executes (the
 * paper's up to 30% more throughput from two threads is each at about 0.65 of its speed alone),
 * and a flush handler on one thread slows the other.
 *
 * <p>A step runs {@code smt.share.factor} times slower while any sibling of its CPU (same core,
 * other thread) is executing: not blocked, and not descheduled by the host. A blocked CPU leaves
 * the core to its sibling: halted in HLT (the paper's single-task modes: a halted logical
 * processor gives the whole core to the other), or spinning in
 * csd_lock_wait(), whose cpu_relax() loop executes PAUSE on x86, which Intel's Optimization
 * Reference Manual recommends in spin-wait loops on Hyper-Threading processors so that the spinning
 * thread leaves the shared execution resources to its sibling. A spin the model runs as steps of
 * work (not blocked) counts as executing.
 *
 * <p>The core is shared only while both threads execute (processor sharing): a step runs at the
 * factor's slower pace while a sibling executes and at its own pace while none does, and its end
 * moves each time a sibling starts or stops executing during it ({@link StepTime#rescale},
 * {@link StepSchedule#move}). A long interrupt handler that begins while its sibling runs a 47 ns
 * local flush is slowed for those 47 ns, not whole. A CPU's siblings are those of its guest's
 * topology, except under a host topology with SMT, where a vCPU's are whatever runs on the
 * sibling pCPUs of the pCPU it is on ({@code HostModel.shareHostCore}).
 *
 * <p>The factor is kept in thousandths and applied in integer arithmetic (rounded half up), so a
 * run is exactly reproducible; a CPU without siblings, or a factor of 1, keeps every cost as it is.
 */
public final class SmtSharing {
    /** No sibling to share with (a core of one thread, or sharing turned off). */
    static final SmtSharing NONE = new SmtSharing(new BooleanSupplier[0], new LongConsumer[0], 1000);

    /** Whether each other thread of its core executes now (KernelCpu.executing()). */
    private final BooleanSupplier[] siblings;
    /** Each other thread's step in progress changes pace at a time (StepTime.rescale). */
    private final LongConsumer[] rescale;
    private final long permille;
    /** Whether its CPU was executing when it last told its siblings. */
    private boolean wasExecuting;

    private SmtSharing(BooleanSupplier[] siblings, LongConsumer[] rescale, long permille) {
        this.siblings = siblings;
        this.rescale = rescale;
        this.permille = permille;
    }

    /**
     * The sharing of a CPU whose other threads on its core (topology_sibling_cpumask without the
     * CPU itself: {@code siblings}, whether each executes, and {@code rescale}, each one's step
     * in progress changing pace) slow it by {@code permille} thousandths while one of them executes.
     */
    static SmtSharing of(BooleanSupplier[] siblings, LongConsumer[] rescale, long permille) {
        return siblings.length == 0 || permille <= 1000 ? NONE : new SmtSharing(siblings.clone(), rescale.clone(), permille);
    }

    /** Whether its CPU shares its core with a sibling that slows it. */
    boolean shares() {
        return this != NONE;
    }

    /** The factor, in thousandths, for running now: 1000 unless a sibling is executing. */
    long permilleNow() {
        for (BooleanSupplier s : siblings) {
            if (s.getAsBoolean()) {
                return permille;
            }
        }
        return 1000;
    }

    /**
     * Its CPU is {@code executing} at {@code now}: if that changed since it last said, each
     * sibling's step in progress runs faster or slower from now on.
     */
    void executing(boolean executing, long now) {
        if (executing == wasExecuting || !shares()) {
            return;
        }
        wasExecuting = executing;
        for (LongConsumer r : rescale) {
            r.accept(now);
        }
    }

    /** A new run: its CPU has told nobody anything yet. */
    void reset() {
        wasExecuting = false;
    }

    /** {@code t * permille / 1000} rounded half up, without overflow for any step ({@code t} in ns or ps). */
    public static long scale(long t, long permille) {
        return permille == 1000 ? t : t / 1000 * permille + (t % 1000 * permille + 500) / 1000;
    }
}

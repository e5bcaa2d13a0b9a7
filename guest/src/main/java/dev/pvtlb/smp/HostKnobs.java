package dev.pvtlb.smp;

import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import java.util.List;

/**
 * The host model's knobs: which fair scheduler the host runs and whether it moves vCPU threads
 * between pCPUs. The host model itself (HostModel, in the hypervisors module) is a plug-in the
 * guest module cannot see, so its knobs are declared here, beside {@link VcpuHost}, the host
 * model's face to the guest: every backend takes them (a kernel preset sets them with the guest's
 * designs, the host being at the guest's release) and bare metal, which has no host, ignores them.
 */
public final class HostKnobs {
    public static final KnobSpec SCHEDULER = KnobSpec.choice("host.scheduler", "eevdf",
            "the host's fair scheduler, for a virtualized backend: eevdf = Linux 6.6+ (a woken vCPU keeps its lag and waits "
                    + "while it is not eligible); cfs = up to 6.5, the hosts of the 2019 measurements (a vCPU woken from HLT is "
                    + "placed half a scheduling latency back and preempts a CPU-bound vCPU more than the wake-up granularity ahead)",
            "eevdf", "cfs");

    public static final KnobSpec BALANCE = KnobSpec.choice("host.balance", "none",
            "whether the host's fair scheduler moves vCPU threads between pCPUs, for a virtualized backend: none = each stays "
                    + "on the pCPU it was placed on (the model so far); idle = as Linux keeps CPUs busy: a vCPU woken while its "
                    + "pCPU is busy goes to an idle pCPU (select_idle_sibling()), and a pCPU left with nothing to run pulls the "
                    + "waiting vCPU of the busiest pCPU that has been off its CPU at least sched_migration_cost, 0.5 ms "
                    + "(newidle_balance(), can_migrate_task()); periodic = idle, and a vCPU woken while its pCPU is busy first goes "
                    + "to its waker's pCPU unless that one is the more loaded (wake_affine(), imbalance_pct 117), and every busy "
                    + "pCPU balances its socket and the host at intervals of the domain's pCPU count in ms times busy_factor 32 "
                    + "(rebalance_domains(), load_balance(); Linux up to 5.9), pulling half the difference in runnable vCPUs from "
                    + "the domain's busiest pCPU; periodic-5.10 = the same with busy_factor 16 (6e7499135db7)",
            "none", "idle", "periodic", "periodic-5.10");


    public static final List<KnobSpec> SPECS = List.of(SCHEDULER, BALANCE);

    /** host.scheduler=cfs: the host places and preempts as CFS did before EEVDF. */
    public final boolean cfs;
    /** host.balance=idle or periodic: vCPU threads move to idle pCPUs (wake-up placement and newly idle balancing). */
    public final boolean balanceIdle;
    /** host.balance=periodic: sd->busy_factor of the periodic balancing between busy pCPUs (and wake_affine() on); 0 without it. */
    public final int busyFactor;

    public HostKnobs(Knobs k) {
        cfs = k.get(SCHEDULER.name()).equals("cfs");
        String balance = k.get(BALANCE.name());
        balanceIdle = !balance.equals("none");
        busyFactor = switch (balance) {
            case "periodic" -> 32;
            case "periodic-5.10" -> 16;
            default -> 0;
        };
    }
}

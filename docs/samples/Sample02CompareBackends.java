package samples;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;

/**
 * Sample 2: one workload under two pv_ops backends, side by side: bare metal ("native") and a
 * KVM guest on an overcommitted host (2 VMs of 4 vCPUs on 4 pCPUs), where a vCPU that should
 * answer a flush IPI may be descheduled. Like {@code pvtlb compare munmap-storm --backends native,kvm}.
 */
public final class Sample02CompareBackends {
    /** The same workload and seed every time; only the backend and host differ. */
    static Scenario workload() {
        return Scenario.of("munmap-storm")
                .set("vcpus", "4")
                .set("threads", "4")
                .set("ops", "200")
                .seed(7);
    }

    public static void main(String[] args) {
        // Backends are plug-ins found by ServiceLoader: "native" comes with the guest module,
        // "kvm", "xen-pv", "hyperv", ... with the hypervisors module on the class path.
        RunReport bare = Runner.run(workload().backend("native"));
        // pcpus and vms describe the host; they only apply to a virtualized backend.
        RunReport vm = Runner.run(workload().backend("kvm").set("pcpus", "4").set("vms", "2"));

        System.out.printf("%-28s %14s %14s%n", "", bare.backend(), vm.backend() + " (2 VMs)");
        for (Counter c : new Counter[] {Counter.NR_TLB_REMOTE_FLUSH, Counter.IPIS_SENT, Counter.HYPERCALLS,
                Counter.VMEXITS, Counter.DEFERRED_FLUSHES, Counter.VCPU_PREEMPTIONS}) {
            System.out.printf("%-28s %14d %14d%n", c.key, bare.counters().get(c.key), vm.counters().get(c.key));
        }
        // Metrics are means in ns; the latency map adds percentiles over every munmap.
        System.out.printf("%-28s %14.1f %14.1f%n", "munmap_ns mean", bare.metrics().get("munmap_ns").mean(),
                vm.metrics().get("munmap_ns").mean());
        RunReport.Percentiles b = bare.latency().get("munmap_ns");
        RunReport.Percentiles v = vm.latency().get("munmap_ns");
        System.out.printf("%-28s %14.1f %14.1f%n", "munmap_ns p50", b.p50(), v.p50());
        System.out.printf("%-28s %14.1f %14.1f%n", "munmap_ns p99", b.p99(), v.p99());
        // The mean above p99: a few munmaps waited for a vCPU the host had descheduled.
        System.out.printf("%-28s %14.1f %14.1f%n", "munmap_ns max", b.max(), v.max());
        System.out.printf("%-28s %14.6f %14.6f%n", "simulated s", bare.simulatedS(), vm.simulatedS());
        // The knobs each run used, defaults included (kvm adds its own, kvm.*).
        System.out.println("native knobs: " + bare.knobs());
        System.out.println("kvm knobs:    " + vm.knobs());
    }
}

package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

/**
 * {@code others=same}: the host's other VMs are co-guests running the scenario's workload on
 * their own kernels, instead of CPU-bound threads.
 */
class CoGuestTest {
    /** ebizzy -m: its mmap and munmap write mmap_lock, so threads sleep on it. */
    private static Scenario ebizzy4() {
        return Scenario.of("ebizzy").backend("kvm").set("vms", "2").set("vcpus", "4").set("threads", "4")
                .set("mmapLock", "rwsem").set("alloc", "mmap").set("chunk_pages", "32");
    }

    /**
     * A co-guest's vCPU halts when its own threads sleep on mmap_lock, and the pCPU goes back to
     * the primary's vCPU; a CPU-bound thread never gives it back before its slice ends. Its
     * spinning vCPUs also exit and yield, which CPU-bound threads never do.
     */
    @Test
    void aCoGuestGivesItsPcpuBackWhenItsThreadsSleep() {
        RunReport cpuBound = Runner.run(ebizzy4());
        RunReport same = Runner.run(ebizzy4().set("others", "same"));
        assertEquals(7400, Math.round(cpuBound.metrics().get("records_per_s").mean()));
        assertEquals(21583, Math.round(same.metrics().get("records_per_s").mean()));
        assertEquals(54216738, cpuBound.cpuTimeNs().get("stolen"));
        assertEquals(44659476, same.cpuTimeNs().get("stolen"));
        assertEquals(0, cpuBound.counters().get("vcpu_preemptions"));
        assertEquals(218, same.counters().get("vcpu_preemptions"));
        assertEquals(8, same.counters().get("directed_yields"));
    }

    /**
     * Every VM runs the workload, so every VM's metrics are reported, VM k's under {@code vmK.}
     * (the primary's as they were); with CPU-bound threads as the other VMs there are none.
     */
    @Test
    void everyCoGuestsMetricsAreReportedUnderItsVmNumber() {
        RunReport three = Runner.run(ebizzy4().set("vms", "3").set("others", "same"));
        assertEquals(java.util.List.of("records_per_s", "vm1.records_per_s", "vm2.records_per_s"),
                java.util.List.copyOf(three.metrics().keySet()));
        assertEquals(15400, Math.round(three.metrics().get("records_per_s").mean()));
        assertEquals(14867, Math.round(three.metrics().get("vm1.records_per_s").mean()));
        assertEquals(14767, Math.round(three.metrics().get("vm2.records_per_s").mean()));
        assertEquals(java.util.List.of("records_per_s"),
                java.util.List.copyOf(Runner.run(ebizzy4().set("vms", "3")).metrics().keySet()));
    }

    /**
     * Runs that count records (ops=N) end when every VM's threads have exited, not when the
     * primary's have: here the co-guest's 240 records take 5.9 ms and the primary's 7.4 ms, and the
     * host goes on scheduling the primary's vCPUs after the co-guest's halt. (A timed run ends with
     * its window instead, whatever either VM's threads are doing.)
     */
    @Test
    void aTwoVmRunOfCountedRecordsEndsWhenBothVmsThreadsHave() {
        RunReport r = Runner.run(Scenario.of("ebizzy").backend("kvm").seed(4).set("vms", "2").set("vcpus", "8")
                .set("threads", "8").set("pcpus", "8").set("others", "same").set("kvm.pvTlbFlush", "false").set("ops", "30"));
        assertEquals(32502, Math.round(r.metrics().get("records_per_s").mean()));
        assertEquals(40682, Math.round(r.metrics().get("vm1.records_per_s").mean()));
        assertEquals(11_883_208, Math.round(r.simulatedS() * 1e9), 1000, "the primary's last record, then RCU's and the timers' tail");
    }

    /** Three VMs, each a kernel of its own on one engine: the same seed gives the same run. */
    @Test
    void coGuestRunsAreDeterministic() {
        Scenario s = ebizzy4().set("vms", "3").set("others", "same");
        RunReport a = Runner.run(s);
        RunReport b = Runner.run(s.copy());
        assertEquals(a.metrics(), b.metrics());
        assertEquals(a.counters(), b.counters());
        assertEquals(a.cpuTimeNs(), b.cpuTimeNs());
        assertEquals(a.steps(), b.steps());
    }

    @Test
    void oneVmHasNoCoGuest() {
        Scenario one = Scenario.of("ebizzy").backend("kvm").set("vcpus", "4").set("threads", "4");
        assertEquals(Runner.run(one).metrics().get("records_per_s").mean(),
                Runner.run(one.copy().set("others", "same")).metrics().get("records_per_s").mean());
    }

    /** ebizzy ops=timed: one VM alone also runs host_slices slices, as runs with other VMs do. */
    @Test
    void timedEbizzyRunsItsHostSlicesOnOneVm() {
        RunReport r = Runner.run(Scenario.of("ebizzy").backend("kvm").set("vcpus", "4").set("threads", "4")
                .set("ops", "timed").set("host_slices", "5"));
        assertEquals(33067, Math.round(r.metrics().get("records_per_s").mean()));
        assertEquals(15_000_001, Math.round(r.simulatedS() * 1e9), "5 slices of 3 ms: the run ends with its window");
        ModelException bad = assertThrows(ModelException.class, () -> Runner.run(Scenario.of("ebizzy").backend("kvm")
                .set("vcpus", "4").set("ops", "lots")));
        assertEquals("ebizzy: parameter ops must be auto, timed or an integer, got 'lots'", bad.getMessage());
    }

    @Test
    void aCoGuestSharesItsPrimarysEngineAndHost() {
        Scenario s = ebizzy4();
        try (Guest primary = Guest.boot(s.guestConfig(0)); Guest co = (Guest) KernelBoot.bootCoGuest(
                s.guestConfig(1), KernelBoot.of(primary), 1).facade()) {
            Kernel p = KernelBoot.of(primary);
            Kernel c = KernelBoot.of(co);
            assertSame(p.engine(), c.engine());
            assertSame(p.vcpuHost(), c.vcpuHost());
            assertEquals(1, c.vmIndex());
            assertSame(p, c.primaryGuest());
            assertNull(p.primaryGuest());
            HostModel host = (HostModel) p.vcpuHost();
            HostVcpu v = host.vcpu(c.cpu(2));
            assertEquals(1, v.vm);
            assertEquals(2, v.index);
            assertSame(c.cpu(2), v.cpu);
            assertSame(p.cpu(2), host.vcpu(2).cpu);
            // 4 vCPUs per VM on 4 pCPUs: VM 0 runs first everywhere, VM 1 waits.
            assertEquals(VcpuState.RUNNABLE, v.state);
            assertThrows(IllegalStateException.class, () -> c.reset(null));
        }
    }

    /**
     * {@code others=cpu-bound:1}: one vCPU of the other VM busy (a "stress --cpu 1" in it), the
     * other three halted for the whole run, so one pCPU of four is shared instead of all four: the
     * primary's vCPUs wait for a pCPU about half as long (its mmap_lock convoy passes through the
     * shared pCPU's vCPU too) and complete more than twice the records.
     */
    @Test
    void onlyTheBusyVcpusOfAnotherVmCompeteForPcpus() {
        RunReport all = Runner.run(ebizzy4());
        RunReport one = Runner.run(ebizzy4().set("others", "cpu-bound:1"));
        assertEquals(54216738, all.cpuTimeNs().get("stolen"));
        assertEquals(28121923, one.cpuTimeNs().get("stolen"));
        assertTrue(one.cpuTimeNs().get("stolen") < all.cpuTimeNs().get("stolen"));
        assertEquals(7400, Math.round(all.metrics().get("records_per_s").mean()));
        assertEquals(24567, Math.round(one.metrics().get("records_per_s").mean()));
    }

    @Test
    void badValuesAndTheExplorerAreRefused() {
        ModelException bad = assertThrows(ModelException.class, () -> ebizzy4().set("others", "maybe"));
        assertEquals("others must be cpu-bound, cpu-bound:N (N vCPUs of each busy) or same, got 'maybe'", bad.getMessage());
        ModelException none = assertThrows(ModelException.class, () -> ebizzy4().set("others", "cpu-bound:0"));
        assertEquals("others=cpu-bound:N needs N >= 1, got 'cpu-bound:0'", none.getMessage());
        ModelException tooMany = assertThrows(ModelException.class, () -> ebizzy4().set("others", "cpu-bound:5").guestConfig(0));
        assertEquals("others=cpu-bound:N needs 0 < N <= the VM's 4 vCPUs, got 5", tooMany.getMessage());
        Scenario s = ebizzy4().set("others", "same");
        try (Guest g = Guest.boot(s.guestConfig(0))) {
            ModelException e = assertThrows(ModelException.class, () -> s.setUp(g));
            assertEquals("others=same: only run, compare and validate boot the other VMs as co-guests; here they "
                    + "would be CPU-bound threads (use others=cpu-bound)", e.getMessage());
        }
    }
}

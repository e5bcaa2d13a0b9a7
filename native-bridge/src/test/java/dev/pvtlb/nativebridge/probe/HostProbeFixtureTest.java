package dev.pvtlb.nativebridge.probe;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe replayed on each fixture (see fixtures/README.md for where each came from). */
class HostProbeFixtureTest {

    private static final List<String> NR_TLB = TlbCounters.VMSTAT_NAMES;

    /** Captured from the pvtlb build machine: a 2-vCPU PVM guest. */
    @Nested
    class ThisMachine {
        private final HostReport r = Fixtures.probe("this-machine");

        @Test
        void cpuAndTopology() {
            assertEquals("AMD EPYC", r.cpuModel());
            assertEquals(2, r.logicalCpus());
            assertEquals("sysfs", r.topology().source());
            assertEquals(1, r.topology().sockets().getAsInt());
            assertEquals(2, r.topology().cores().getAsInt());
            assertEquals(1, r.topology().threadsPerCore().getAsInt());
            assertEquals(List.of("0", "1"), r.topology().smtSiblingLists());
        }

        @Test
        void pvmHypervisorFlushesByHypercall() {
            assertTrue(r.hypervisor().present());
            assertEquals("PVM", r.hypervisor().name());
            assertEquals(List.of(
                    "/proc/cpuinfo flag: hypervisor",
                    "kernel log: Hypervisor detected: PVM",
                    "kernel log: Booting paravirtualized kernel on PVM"), r.hypervisor().evidence());
            assertEquals("dmesg.txt", r.kernelLogSource());
            assertEquals("hypercall (PVM_HC_FLUSH_TLB_MULTI)", r.remoteFlush().method());
            assertEquals("kernel log: pvm-pv: remote TLB flushes via PVM_HC_FLUSH_TLB_MULTI", r.remoteFlush().evidence());
        }

        @Test
        void noFlushIpisAndNoDebugCounters() {
            assertEquals(List.of(0L, 0L), r.tlbCounters().shootdownsPerCpu());
            assertEquals(0L, r.tlbCounters().shootdownTotal().getAsLong());
            assertEquals(Map.of(), r.tlbCounters().vmstat());
            assertEquals(NR_TLB, r.tlbCounters().absentVmstat());
            NR_TLB.forEach(name -> assertNull(r.toMap().get(name), name + " is absent, not 0"));
        }
    }

    /** Hand-made: Dell R640, 2 x Xeon Gold 6248 trimmed to 8 logical CPUs, debug kernel. */
    @Nested
    class BareMetalTwoSocketIntel {
        private final HostReport r = Fixtures.probe("bare-metal-2s-intel-smt");

        @Test
        void twoSocketsOfTwoCoresWithTwoThreadsEach() {
            assertEquals("Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz", r.cpuModel());
            assertEquals(8, r.logicalCpus());
            assertEquals("sysfs", r.topology().source());
            assertEquals(2, r.topology().sockets().getAsInt());
            assertEquals(4, r.topology().cores().getAsInt());
            assertEquals(2, r.topology().threadsPerCore().getAsInt());
            assertEquals(List.of("0,4", "1,5", "2,6", "3,7"), r.topology().smtSiblingLists());
            assertEquals(new CpuTopology.LogicalCpu(6, 1, 0, "2,6"), r.topology().cpus().get(6));
        }

        @Test
        void noHypervisorSoNativeIpis() {
            assertFalse(r.hypervisor().present());
            assertEquals("none", r.hypervisor().name());
            assertEquals(List.of(), r.hypervisor().evidence(), "'on bare hardware' is no evidence");
            assertEquals("var/log/dmesg", r.kernelLogSource());
            assertEquals("native IPI", r.remoteFlush().method());
        }

        @Test
        void debugTlbflushCountersPresent() {
            assertEquals(List.of(1482731L, 1397220L, 1211874L, 1190338L, 1324556L, 1288910L, 1176003L, 1150327L),
                    r.tlbCounters().shootdownsPerCpu());
            assertEquals(10221959L, r.tlbCounters().shootdownTotal().getAsLong());
            assertEquals(Map.of("nr_tlb_remote_flush", 9581123L, "nr_tlb_remote_flush_received", 38224519L,
                    "nr_tlb_local_flush_all", 4419870L, "nr_tlb_local_flush_one", 301877445L), r.tlbCounters().vmstat());
            assertEquals(List.of(), r.tlbCounters().absentVmstat());
        }
    }

    /** Hand-made: QEMU/KVM guest with 4 vCPUs and KVM_FEATURE_PV_TLB_FLUSH. */
    @Nested
    class KvmGuest {
        private final HostReport r = Fixtures.probe("kvm-guest-4vcpu");

        @Test
        void fourCoresOneThreadEach() {
            assertEquals("Intel Xeon Processor (Cascadelake)", r.cpuModel());
            assertEquals(4, r.logicalCpus());
            assertEquals(1, r.topology().sockets().getAsInt());
            assertEquals(4, r.topology().cores().getAsInt());
            assertEquals(1, r.topology().threadsPerCore().getAsInt());
        }

        @Test
        void kvmPvTlbFlush() {
            assertEquals("KVM", r.hypervisor().name());
            assertEquals("kvm pv tlb flush", r.remoteFlush().method());
            assertEquals("kernel log: kvm-guest: KVM setup pv remote TLB flush", r.remoteFlush().evidence());
            assertEquals(80705L, r.tlbCounters().shootdownTotal().getAsLong());
            assertEquals(NR_TLB, r.tlbCounters().absentVmstat());
        }

        @Test
        void rendersAStableText() {
            assertEquals("""
                    cpu_model:                    Intel Xeon Processor (Cascadelake)
                    logical_cpus:                 4
                    sockets:                      1
                    physical_cores:               4
                    threads_per_core:             1
                    smt_sibling_lists:            0 | 1 | 2 | 3
                    topology_source:              sysfs
                    hypervisor_present:           true
                    hypervisor:                   KVM
                    hypervisor_evidence:          /proc/cpuinfo flag: hypervisor | kernel log: Hypervisor detected: KVM | kernel log: Booting paravirtualized kernel on KVM
                    kernel_log_source:            dmesg.txt
                    remote_tlb_flush:             kvm pv tlb flush
                    remote_tlb_flush_evidence:    kernel log: kvm-guest: KVM setup pv remote TLB flush
                    tlb_shootdowns_per_cpu:       20533 19876 21304 18992
                    tlb_shootdown_irqs:           80705
                    nr_tlb_remote_flush:          absent
                    nr_tlb_remote_flush_received: absent
                    nr_tlb_local_flush_all:       absent
                    nr_tlb_local_flush_one:       absent
                    """, r.render().replace(System.lineSeparator(), "\n"));
            assertEquals(List.of("cpu_model", "logical_cpus", "sockets", "physical_cores", "threads_per_core",
                    "smt_sibling_lists", "topology_source", "hypervisor_present", "hypervisor", "hypervisor_evidence",
                    "kernel_log_source", "remote_tlb_flush", "remote_tlb_flush_evidence", "tlb_shootdowns_per_cpu",
                    "tlb_shootdown_irqs", "nr_tlb_remote_flush", "nr_tlb_remote_flush_received",
                    "nr_tlb_local_flush_all", "nr_tlb_local_flush_one"), List.copyOf(r.toMap().keySet()));
        }
    }

    /** Hand-made: Azure-like Hyper-V guest, captured without /sys. */
    @Nested
    class HyperVGuestWithoutSysfs {
        private final HostReport r = Fixtures.probe("hyperv-guest-no-sysfs");

        @Test
        void topologyFallsBackToCpuinfo() {
            assertEquals("Intel(R) Xeon(R) Platinum 8272CL CPU @ 2.60GHz", r.cpuModel());
            assertEquals(2, r.logicalCpus());
            assertEquals("cpuinfo", r.topology().source());
            assertEquals(1, r.topology().sockets().getAsInt());
            assertEquals(1, r.topology().cores().getAsInt());
            assertEquals(2, r.topology().threadsPerCore().getAsInt());
            assertEquals(List.of("0-1"), r.topology().smtSiblingLists());
        }

        @Test
        void hyperVFlushesByHypercall() {
            assertEquals("Microsoft Hyper-V", r.hypervisor().name());
            assertEquals("hypercall (Hyper-V HVCALL_FLUSH_VIRTUAL_ADDRESS_*)", r.remoteFlush().method());
            assertEquals("kernel log: Hyper-V: Using hypercall for remote TLB flush", r.remoteFlush().evidence());
            assertEquals(List.of(12L, 9L), r.tlbCounters().shootdownsPerCpu());
        }
    }

    /** Hand-made: EC2 m4.large-like Xen HVM guest. */
    @Nested
    class XenHvmGuest {
        private final HostReport r = Fixtures.probe("xen-hvm-guest");

        @Test
        void sysHypervisorTypeIsEvidence() {
            assertEquals("Xen HVM", r.hypervisor().name());
            assertTrue(r.hypervisor().evidence().contains("/sys/hypervisor/type: xen"), r.hypervisor().evidence().toString());
            assertEquals(1, r.topology().cores().getAsInt());
            assertEquals(2, r.topology().threadsPerCore().getAsInt());
        }

        @Test
        void noPvFlushAnnouncedMeansNativeIpis() {
            assertEquals("native IPI", r.remoteFlush().method());
            assertEquals("kernel log (dmesg.txt) announces no paravirtual remote TLB flush", r.remoteFlush().evidence());
            assertEquals(37468L, r.tlbCounters().shootdownTotal().getAsLong());
        }
    }

    @Test
    void anEmptyRootReportsAbsenceNotDefaults() throws Exception {
        java.nio.file.Path empty = java.nio.file.Files.createTempDirectory("pvtlb-empty-root");
        HostReport r = new HostProbe(empty).probe();
        assertEquals("unknown", r.cpuModel());
        assertEquals(0, r.logicalCpus());
        assertEquals("none", r.topology().source());
        assertNull(r.toMap().get("sockets"));
        assertEquals("none", r.kernelLogSource());
        assertEquals("native IPI", r.remoteFlush().method());
        assertNull(r.toMap().get("tlb_shootdown_irqs"));
        assertTrue(Arrays.stream(r.render().split("\n")).anyMatch(l -> l.matches("tlb_shootdown_irqs:\\s+absent")));
    }
}

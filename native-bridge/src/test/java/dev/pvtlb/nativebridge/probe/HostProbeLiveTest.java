package dev.pvtlb.nativebridge.probe;

import dev.pvtlb.nativebridge.NativeOs;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The probe on the live machine, "/". */
class HostProbeLiveTest {

    @Test
    void liveProbe() throws Exception {
        HostReport live = new HostProbe().probe();

        // True on any Linux host.
        assertEquals(NativeOs.select("auto").onlineCpus(), live.logicalCpus());
        assertEquals(live.logicalCpus(), live.topology().cpus().size());
        assertTrue(live.render().startsWith("cpu_model:"));

        // Wherever the kernel log names the hypervisor, the probe names the same one.
        String detected = kernelLogHypervisor();
        if (detected != null) {
            assertTrue(live.hypervisor().name().startsWith(detected), live.hypervisor().name() + " vs the log's " + detected);
        }
    }

    /** The machine the this-machine fixture was captured on, when it boots as it was then. */
    @Test
    void theCaptureMachineMatchesItsFixture() throws Exception {
        HostReport live = new HostProbe().probe();
        String detected = kernelLogHypervisor();
        // The pvtlb build machine, where the this-machine fixture was captured: a PVM guest
        // with 2 vCPUs (dmesg: "Hypervisor detected: PVM", "pvm-pv: remote TLB flushes via
        // PVM_HC_FLUSH_TLB_MULTI"), no /sys/hypervisor, and no CONFIG_DEBUG_TLBFLUSH. Its kernel's
        // build suffix changes between sessions (-fc-v782 when captured, -fc-v1045 later), the
        // release does not. The same release has also booted as a KVM guest (-fc-v1098): the
        // fixture is compared only where the kernel log says PVM.
        String release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        assumeTrue(release.startsWith("6.18.44-fc-") && "PVM".equals(detected),
                "not the machine this-machine was captured from: " + release + ", hypervisor " + detected);
        assertEquals("AMD EPYC", live.cpuModel());
        assertEquals(2, live.logicalCpus());
        assertEquals(List.of("0", "1"), live.topology().smtSiblingLists());
        assertEquals("PVM", live.hypervisor().name());
        assertEquals("dmesg", live.kernelLogSource());
        assertEquals("hypercall (PVM_HC_FLUSH_TLB_MULTI)", live.remoteFlush().method());
        assertEquals(2, live.tlbCounters().shootdownsPerCpu().size());
        assertEquals(TlbCounters.VMSTAT_NAMES, live.tlbCounters().absentVmstat());
        HostReport captured = Fixtures.probe("this-machine");
        assertEquals(captured.topology(), live.topology());
        assertEquals(captured.hypervisor(), live.hypervisor());
        assertEquals(captured.remoteFlush(), live.remoteFlush());
    }

    /**
     * The name in the kernel log's "Hypervisor detected: X" line (the first word of X), read as
     * the probe reads the live log (KernelLog), or null if the log has none or cannot be read.
     */
    private static String kernelLogHypervisor() {
        return KernelLog.read(new HostFiles(Path.of("/")), true).find(Pattern.compile("Hypervisor detected: (\\S+)"))
                .map(h -> h.match().group(1)).orElse(null);
    }
}

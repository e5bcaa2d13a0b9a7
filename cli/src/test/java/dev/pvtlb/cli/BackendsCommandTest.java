package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BackendsCommandTest {
    @Test
    void listsEveryBuiltInBackendWithItsKnobsAndDefaults() {
        MainTest.Result r = pvtlb("backends");
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().split("\n");
        for (String b : new String[] {"arm64", "hyperv", "invlpgb", "kvm", "native", "pvm", "rar", "xen-pv"}) {
            assertTrue(java.util.Arrays.stream(lines).anyMatch(l -> l.startsWith(b + " ")), b + " missing:\n" + r.out());
        }
        assertTrue(r.out().contains("    kvm.pvTlbFlush           [true] true|false: "), r.out());
        assertTrue(r.out().contains("    kvm.hostClearPreempted   [xchg] xchg|plain-write: "), r.out());
        assertTrue(r.out().contains("    pvm.remoteFlush          [hypercall] hypercall|ipi: "), r.out());
        assertTrue(r.out().contains("    hyperv.ex                [true] true|false: "), r.out());
        assertTrue(r.out().contains("    arm64.flush              [broadcast] broadcast|local: "), r.out());
        assertTrue(r.out().contains("    arm64.mmCpumask          [tracked] tracked|stale: "), r.out());
        assertTrue(r.out().contains("    tableFree                [rcu] immediate|ipi-sync|rcu: "), r.out());
    }

    @Test
    void aBackendKnobIsReportedWithTheRun(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("kvm.json");
        MainTest.Result r = pvtlb("run", "munmap-storm", "--backend", "kvm", "--set", "kvm.pvTlbFlush=false",
                "--set", "ops=3", "--set", "threads=8", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        assertTrue(j.contains("\"backend\": \"kvm\""), j);
        assertTrue(j.contains("\"kvm.pvTlbFlush\": \"false\""), j);
        assertTrue(j.contains("\"kvm.hostClearPreempted\": \"xchg\""), j);
        assertFalse(j.contains("hyperv.ex"), "only the chosen backend's knobs are reported");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run munmap-storm --backend kvm --set hyperv.ex=false",
        "run munmap-storm --backend kvm --set kvm.hostClearPreempted=racy",
        "run munmap-storm --set pcpus=2",
        "run munmap-storm --backend arm64 --set vms=2",
        "run munmap-storm --backend kvm --set vms=0",
        "run munmap-storm --backend kvm --set pcpus=-1"
    })
    void badBackendSettingsGetExitTwoAndOneLine(String line) {
        MainTest.Result r = pvtlb(line.split(" "));
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("pvtlb: "), r.err());
    }
}

package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.pvops.KernelRelease;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The {@code kernel} preset against every shipped backend: the table names only knobs that exist, with
 * values they allow, and every design knob is either set by each release or excluded with a reason, so
 * a new knob cannot slip past the table unnoticed.
 */
class KernelReleaseBackendsTest {
    /** The shipped backends (the guest's test backends, on this class path too, are not Linux's). */
    private static List<PvBackend> shipped() {
        return PvBackends.all().values().stream().filter(b -> b.getClass().getPackageName().startsWith("dev.pvtlb.internal")).toList();
    }

    private static Map<String, KnobSpec> allKnobs() {
        Map<String, KnobSpec> m = new LinkedHashMap<>();
        for (KnobSpec s : KnobRegistry.common()) {
            m.put(s.name(), s);
        }
        for (PvBackend b : shipped()) {
            for (KnobSpec s : b.knobs()) {
                m.put(s.name(), s);
            }
        }
        return m;
    }

    @Test
    void everyReleaseSetsOnlyKnownKnobsToAllowedValues() {
        assertEquals(List.of("arm64", "hyperv", "invlpgb", "kvm", "native", "pvm", "rar", "xen-pv"),
                shipped().stream().map(PvBackend::name).sorted().toList());
        Map<String, KnobSpec> known = allKnobs();
        for (KernelRelease r : KernelRelease.values()) {
            for (String backend : shipped().stream().map(PvBackend::name).toList()) {
                for (var e : r.settings(backend).entrySet()) {
                    KnobSpec s = known.get(e.getKey());
                    assertTrue(s != null, r.version() + " sets unknown knob " + e.getKey());
                    assertTrue(s.allowed().contains(e.getValue()), r.version() + " sets " + e.getKey() + "=" + e.getValue());
                }
            }
        }
    }

    @Test
    void everyDesignKnobIsSetByEachReleaseOrExcludedWithAReason() {
        List<String> uncovered = new ArrayList<>();
        for (String knob : new TreeSet<>(allKnobs().keySet())) {
            if (knob.equals(KernelRelease.KNOB) || KernelRelease.EXCLUDED.containsKey(knob)) {
                continue;
            }
            for (KernelRelease r : KernelRelease.values()) {
                if (!r.settings("native").containsKey(knob)) {
                    uncovered.add(r.version() + ": " + knob);
                }
            }
        }
        assertEquals(List.of(), uncovered);
        for (String excluded : KernelRelease.EXCLUDED.keySet()) {
            assertTrue(allKnobs().containsKey(excluded), "excluded knob " + excluded + " does not exist");
            for (KernelRelease r : KernelRelease.values()) {
                assertTrue(!r.settings("native").containsKey(excluded), r.version() + " sets excluded " + excluded);
            }
        }
    }

    private static Map<String, String> kvm(String... kv) {
        GuestConfig.Builder b = GuestConfig.builder().cpus(2).memoryMiB(16).backend("kvm").pcpus(2);
        for (int i = 0; i < kv.length; i += 2) {
            b.knob(kv[i], kv[i + 1]);
        }
        try (Guest g = Guest.boot(b.build())) {
            return g.knobValues().values();
        }
    }

    @Test
    void kvmAt419HasNoPvSchedYieldNoBoostAndTheCve20193016HostClear() {
        Map<String, String> k = kvm("kernel", "4.19");
        assertEquals("false", k.get("kvm.pvSchedYield"));
        assertEquals("false", k.get("kvm.boost"));
        assertEquals("false", k.get("kvm.boostUserMode"));
        assertEquals("plain-write", k.get("kvm.hostClearPreempted"));
        assertEquals("true", k.get("kvm.pvTlbFlush"));
        assertEquals("rcu", k.get("tableFree"));
        assertEquals("cfs", k.get("host.scheduler"));
        assertEquals("ipi", k.get("lazy"));
        // host tunables are not the release's
        assertEquals("true", k.get("kvm.ple"));
        assertEquals("true", k.get("kvm.haltPoll"));
    }

    @Test
    void theBoostOfVcpusDeliveringInterruptsCameWith53() {
        // d73eb57b80b9 was pulled in the 5.3 merge window: a 5.2 host has no boost, a 5.3 host has it.
        assertEquals("false", kvm("kernel", "5.2").get("kvm.boost"));
        assertEquals("true", kvm("kernel", "5.3").get("kvm.boost"));
    }

    @Test
    void kvmAt510And61AndExplicitKnobsOverTheRelease() {
        Map<String, String> k510 = kvm("kernel", "5.10");
        assertEquals("true", k510.get("kvm.pvSchedYield"));
        assertEquals("true", k510.get("kvm.boost"));
        assertEquals("false", k510.get("kvm.boostUserMode"));
        assertEquals("xchg", k510.get("kvm.hostClearPreempted"));
        assertEquals("true", kvm("kernel", "6.1").get("kvm.boostUserMode"));
        Map<String, String> mixed = kvm("kvm.hostClearPreempted", "xchg", "kernel", "4.19", "kvm.pvSchedYield", "true");
        assertEquals("xchg", mixed.get("kvm.hostClearPreempted"));
        assertEquals("true", mixed.get("kvm.pvSchedYield"));
        assertEquals("false", mixed.get("kvm.boost"));
    }

    @Test
    void arm64BroadcastsWithoutMaintainingMmCpumaskInEveryRelease() {
        for (KernelRelease r : KernelRelease.values()) {
            GuestConfig cfg = GuestConfig.builder().cpus(2).memoryMiB(16).backend("arm64").knob("kernel", r.version()).build();
            try (Guest g = Guest.boot(cfg)) {
                Map<String, String> k = g.knobValues().values();
                assertEquals("broadcast", k.get("arm64.flush"), r.version());
                assertEquals("stale", k.get("arm64.mmCpumask"), r.version());
                assertEquals("rcu", k.get("tableFree"), r.version());
                assertEquals("false", k.get("arm64.kpti"), r.version());
            }
        }
    }
}

package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KVM flush re-implemented outside pvtlb: {@code researcher-kvm}, in the external project
 * {@code src/it/external-design} (kvm_flush_tlb_multi() with steal_time.preempted, the host's
 * record_steal_time() through the SPI's vCPU events, PV send-IPI and PV sched yield, the KVM host
 * model), loaded from that project's jar by {@code pvtlb run --backend-jar}. Its JSON report
 * equals the shipped {@code kvm} backend's on two overcommitted scenarios with the same seed, every
 * metric, counter, CPU-time category, cost part, hazard and step (only the backend's name, its
 * knobs' prefix and the host's wall time differ); and {@code pvtlb assess} on it is SAFE, with its
 * cost rows those of the shipped kvm.
 */
class ExternalKvmDesignIT {
    static final String DESIGN = "researcher-kvm";

    /** The external project's jar (src/it/external-design), which registers this design alone. */
    static Path designJar() {
        return AssessExternalDesignIT.projectJar("external-design");
    }

    private static PvtlbProcess.Ran pvtlb(Path dir, String... args) throws Exception {
        return PvtlbProcess.run(dir, args);
    }

    /** {@code pvtlb run SCENARIO --json F} with the given arguments; the report as read back. */
    private static Map<?, ?> runJson(Path dir, String file, List<String> args) throws Exception {
        Path json = dir.resolve(file);
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(args);
        all.addAll(List.of("--quiet", "--json", json.toString()));
        PvtlbProcess.Ran r = pvtlb(dir, all.toArray(String[]::new));
        assertEquals(0, r.code(), r.out() + r.err());
        return assertInstanceOf(Map.class, JsonReader.parse(Files.readString(json)));
    }

    /** The knob of the shipped backend for one of the design's: rkvm.X is kvm.X; the guest's and the host's are shared. */
    private static String shippedKnob(Object knob) {
        String k = (String) knob;
        return k.startsWith("rkvm.") ? k.substring(1) : k;
    }

    /**
     * Runs {@code scenario} with {@code sets} on the shipped kvm and on the design from its jar and
     * asserts the two JSON reports equal but for the backend's name, its knobs' names and the wall
     * time; returns the shipped backend's counters.
     */
    private static Map<?, ?> assertSameJson(Path dir, String scenario, List<String> sets) throws Exception {
        List<String> shipped = new ArrayList<>(List.of(scenario, "--backend", "kvm", "--seed", "1"));
        List<String> own = new ArrayList<>(List.of(scenario, "--backend-jar", ExternalKvmDesignIT.designJar().toString(),
                "--backend", DESIGN, "--seed", "1"));
        for (String s : sets) {
            shipped.addAll(List.of("--set", s));
            own.addAll(List.of("--set", s));
        }
        Map<Object, Object> a = new LinkedHashMap<>(runJson(dir, scenario + "-kvm.json", shipped));
        Map<Object, Object> b = new LinkedHashMap<>(runJson(dir, scenario + "-design.json", own));
        assertEquals("kvm", a.remove("backend"));
        assertEquals(DESIGN, b.remove("backend"));
        Map<?, ?> knobsA = (Map<?, ?>) a.remove("knobs");
        Map<Object, Object> knobsB = new LinkedHashMap<>();
        ((Map<?, ?>) b.remove("knobs")).forEach((k, v) -> knobsB.put(shippedKnob(k), v));
        assertEquals(knobsA, knobsB, "every knob's value, rkvm.X read as kvm.X");
        assertTrue(knobsA.containsKey("kvm.pvTlbFlush"), knobsA.toString());
        a.remove("host_timing");
        b.remove("host_timing");
        assertEquals(List.of("scenario", "params", "profile", "seed", "reps", "fidelity", "metrics", "counters", "cpu_time_ns",
                "cost_breakdown", "hazards", "sim"), List.copyOf(a.keySet()));
        for (Object part : a.keySet()) {
            assertEquals(a.get(part), b.get(part), scenario + ": " + part);
        }
        assertEquals(a, b);
        return (Map<?, ?>) a.get("counters");
    }

    private static long counter(Map<?, ?> counters, String name) {
        return ((JsonReader.Number) counters.get(name)).asLong();
    }

    /**
     * ebizzy in two VMs over two host slices (one thread per vCPU, half ebizzy's default, for a shorter
     * run): the flushes that find a target preempted defer it to the host.
     */
    @Test
    void ebizzyOnTwoVmsFromTheJarIsTheShippedKvm(@TempDir Path dir) throws Exception {
        Map<?, ?> c = assertSameJson(dir, "ebizzy", List.of("threads=64", "vms=2", "others=same", "host_slices=2"));
        assertEquals(519, counter(c, "deferred_flushes"), "KVM_VCPU_FLUSH_TLB set in a preempted target's steal time");
        assertEquals(490, counter(c, "hypervisor_flushes"), "done by the host at the vCPU's next entry (the rest still out when the window ends)");
        assertEquals(1325, counter(c, "nr_tlb_remote_flush"));
        assertEquals(8773, counter(c, "ipis_sent"));
        assertEquals(567, counter(c, "vcpu_preemptions"));
        assertEquals(629, counter(c, "directed_yields"));
    }

    /** munmap-storm in three VMs sharing the host's pCPUs. */
    @Test
    void munmapStormOnThreeVmsFromTheJarIsTheShippedKvm(@TempDir Path dir) throws Exception {
        Map<?, ?> c = assertSameJson(dir, "munmap-storm", List.of("vms=3", "others=same", "ops=5"));
        assertEquals(4, counter(c, "deferred_flushes"), "targets found preempted");
        assertEquals(4, counter(c, "hypervisor_flushes"));
        assertEquals(80, counter(c, "nr_tlb_remote_flush"), "16 threads x 5 munmaps");
        assertEquals(18, counter(c, "vcpu_preemptions"));
    }

    /**
     * pvtlb compare with the jar: the shipped kvm and the design side by side in one comparison,
     * every figure of the one the other's (the knobs aside, whose names differ).
     */
    @Test
    void compareWithTheJarSetsTheDesignBesideTheShippedKvmFigureForFigure(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("c.json");
        PvtlbProcess.Ran r = pvtlb(dir, "compare", "munmap-storm", "--backend-jar", designJar().toString(), "--vary",
                "backend=kvm," + DESIGN, "--set", "vms=2", "--set", "others=same", "--set", "ops=3", "--quiet", "--json", json.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        Map<?, ?> c = assertInstanceOf(Map.class, JsonReader.parse(Files.readString(json)));
        assertEquals(List.of("backend=kvm", "backend=" + DESIGN), c.get("variants"));
        List<?> runs = assertInstanceOf(List.class, c.get("runs"));
        Map<?, ?> kvm = (Map<?, ?>) ((Map<?, ?>) runs.get(0)).get("report");
        Map<?, ?> own = (Map<?, ?>) ((Map<?, ?>) runs.get(1)).get("report");
        for (String part : List.of("metrics", "counters", "cpu_time_ns", "cost_breakdown", "hazards", "sim")) {
            assertEquals(kvm.get(part), own.get(part), part);
        }
        assertEquals(144, counter((Map<?, ?>) kvm.get("counters"), "nr_tlb_remote_flush"), "16 threads x 3 munmaps x 3 reps");
    }

    /** assess on the design from its jar: SAFE, and its cost rows are the shipped kvm's, VM count by VM count. */
    @Test
    void itsReportCardIsSafeAndCostsWhatKvmCosts(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("a.json");
        Path html = dir.resolve("a.html");
        Path traces = dir.resolve("traces");
        PvtlbProcess.Ran r = pvtlb(dir, "assess", "--backend-jar", ExternalKvmDesignIT.designJar().toString(), "--backend", DESIGN,
                "--threads", "2", "--vms", "1,2", "--budget", "20", "--quiet", "--json", json.toString(), "--html", html.toString(),
                "--traces", traces.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("assess " + DESIGN + ": KVM guest, re-implemented through the SPI"), r.out());
        assertTrue(r.out().contains("runs as a VM on the host model; compared with native, hyperv, kvm, pvm, xen-pv\n"), r.out());
        assertTrue(r.out().contains("\nkvm-preempted-flush        immediate  SAFE     20 schedules\n"), r.out());
        assertTrue(r.out().endsWith("safety verdict: SAFE (0 hazards in 24 hunts, 0 not applicable)\n"), r.out());
        assertFalse(Files.exists(traces), "no hazard, no trace");

        Map<?, ?> card = assertInstanceOf(Map.class, JsonReader.parse(Files.readString(json)));
        assertEquals(DESIGN, card.get("backend"));
        assertEquals(Boolean.TRUE, card.get("virtualized"));
        Map<?, ?> safety = assertInstanceOf(Map.class, card.get("safety"));
        assertEquals("SAFE", safety.get("verdict"));
        Map<?, ?> cost = assertInstanceOf(Map.class, card.get("cost"));
        int compared = 0;
        for (String sweep : List.of("by_threads", "by_vms")) {
            Map<String, Map<?, ?>> byRowAndVariant = new LinkedHashMap<>();
            for (Object o : assertInstanceOf(List.class, assertInstanceOf(Map.class, cost.get(sweep)).get("runs"))) {
                Map<?, ?> run = (Map<?, ?>) o;
                byRowAndVariant.put(run.get("row") + " " + run.get("variant"), (Map<?, ?>) run.get("report"));
            }
            for (var e : byRowAndVariant.entrySet()) {
                if (!e.getKey().endsWith(" backend=" + DESIGN)) {
                    continue;
                }
                Map<?, ?> own = e.getValue();
                Map<?, ?> kvm = byRowAndVariant.get(e.getKey().replace("backend=" + DESIGN, "backend=kvm"));
                for (String part : List.of("metrics", "counters", "cpu_time_ns", "cost_breakdown", "hazards", "sim")) {
                    assertEquals(kvm.get(part), own.get(part), sweep + " " + e.getKey() + ": " + part);
                }
                compared++;
            }
        }
        assertEquals(3, compared, "threads=2, and vms=1 and vms=2");
        String page = Files.readString(html);
        assertTrue(page.contains("<svg"), "the cost charts");
        assertTrue(page.contains("<h1>pvtlb assess " + DESIGN + "</h1>"), page.substring(0, Math.min(600, page.length())));
    }
}

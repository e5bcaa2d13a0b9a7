package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pvtlb assess --backend-jar} on a design that is not pvtlb's: the jar of the external
 * project {@code src/it/skip-promotion-design}, which maven-invoker-plugin builds (against the
 * installed artifacts, with its own tests) in integration-test before failsafe runs this. The
 * design, researcher-skip-promotion, sends no shootdown for a flush that only added permissions;
 * its report card comes out SAFE, as text, JSON and an HTML page with charts. Its budget is small
 * (one thread count, 20 schedules per hunt): the default card is what the acceptance check runs.
 */
class AssessExternalDesignIT {
    static final String DESIGN = "researcher-skip-promotion";

    /** This design's jar. */
    static Path designJar() {
        return projectJar("skip-promotion-design");
    }

    /**
     * The packaged jar of external project {@code src/it/PROJECT} (its artifactId): built by
     * invoker:run, found by path as ProjectFiles finds cli's.
     */
    static Path projectJar(String project) {
        Path jar = ProjectFiles.root().resolve("itests/target/it/" + project + "/target/" + project + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no " + jar + ": maven-invoker-plugin builds it in integration-test, before failsafe "
                    + "(`mvn -B verify -pl itests`, or with -Dinvoker.test=" + project + " for that project alone)");
        }
        return jar;
    }

    private static PvtlbProcess.Ran pvtlb(Path dir, String... args) throws Exception {
        return PvtlbProcess.run(dir, args);
    }

    /**
     * Each external project's jar holds its one design and its services entry, nothing of the
     * project's tests (the unsafe mutant above all): this one, and external-design's KVM
     * re-implementation (ExternalKvmDesignIT).
     */
    @Test
    void eachJarRegistersItsDesignAlone() throws Exception {
        assertJarHolds(designJar(), "researcher.design.PromotionSkipFlush$Provider\n",
                List.of("researcher/design/PromotionSkipFlush$Provider.class", "researcher/design/PromotionSkipFlush.class"));
        assertJarHolds(ExternalKvmDesignIT.designJar(), "researcher.design.ParavirtKvmFlush$Provider\n",
                List.of("researcher/design/ParavirtKvmFlush$Provider.class", "researcher/design/ParavirtKvmFlush$SchedYield.class",
                        "researcher/design/ParavirtKvmFlush.class"));
    }

    private static void assertJarHolds(Path jar, String services, List<String> classes) throws Exception {
        try (JarFile jf = new JarFile(jar.toFile())) {
            JarEntry entry = jf.getJarEntry("META-INF/services/dev.pvtlb.pvops.PvBackend");
            assertEquals(services, new String(jf.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8), jar.toString());
            assertEquals(classes, jf.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).sorted().toList(), jar.toString());
        }
    }

    @Test
    void itsReportCardIsSafeWithJsonAndCharts(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("a.json");
        Path html = dir.resolve("a.html");
        Path traces = dir.resolve("traces");
        PvtlbProcess.Ran r = pvtlb(dir, "assess", "--backend-jar", designJar().toString(), "--backend", DESIGN, "--threads", "2", "--budget", "20",
                "--quiet", "--json", json.toString(), "--html", html.toString(), "--traces", traces.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("assess " + DESIGN + ": bare metal: native IPIs, none for a flush that only added permissions"), r.out());
        assertTrue(r.out().contains("runs on bare metal; compared with native, arm64, invlpgb, rar\n"), r.out());
        assertTrue(r.out().contains("\ntlb-torture                immediate  SAFE     20 schedules\n"), r.out());
        assertTrue(r.out().endsWith("safety verdict: SAFE (0 hazards in 24 hunts, 0 not applicable)\n"), r.out());
        assertFalse(Files.exists(traces), "no hazard, no trace");

        Map<?, ?> card = assertInstanceOf(Map.class, JsonReader.parse(Files.readString(json)));
        assertEquals(DESIGN, card.get("backend"));
        assertEquals(Boolean.FALSE, card.get("virtualized"));
        Map<?, ?> safety = assertInstanceOf(Map.class, card.get("safety"));
        assertEquals("SAFE", safety.get("verdict"));
        assertEquals(0L, ((JsonReader.Number) safety.get("hazards")).asLong());
        List<?> hunts = assertInstanceOf(List.class, safety.get("hunts"));
        assertEquals(24, hunts.size(), "11 catalogue entries and tlb-torture, each under tableFree=immediate and rcu");
        for (Object o : hunts) {
            Map<?, ?> h = (Map<?, ?>) o;
            assertEquals("SAFE", h.get("verdict"), h.toString());
            assertEquals(20L, ((JsonReader.Number) h.get("schedules")).asLong(), h.toString());
        }
        Map<?, ?> cost = assertInstanceOf(Map.class, card.get("cost"));
        assertEquals("munmap-storm", cost.get("scenario"));
        assertEquals(null, cost.get("by_vms"), "a bare-metal design has no overcommit sweep");
        // The cost half runs munmap-storm, whose flushes unmap and never promote: the design's run is
        // native's, figure for figure, and its own counter stays 0. (Its effect shows on mprotect:
        // the external project's own tests measure it.)
        Map<String, Map<?, ?>> byVariant = new LinkedHashMap<>();
        for (Object o : assertInstanceOf(List.class, assertInstanceOf(Map.class, cost.get("by_threads")).get("runs"))) {
            Map<?, ?> run = (Map<?, ?>) o;
            assertEquals("2", run.get("row"));
            byVariant.put((String) run.get("variant"), (Map<?, ?>) run.get("report"));
        }
        assertEquals(List.of("backend=native", "backend=arm64", "backend=invlpgb", "backend=rar", "backend=" + DESIGN),
                List.copyOf(byVariant.keySet()));
        Map<?, ?> nat = byVariant.get("backend=native");
        Map<?, ?> own = byVariant.get("backend=" + DESIGN);
        Map<Object, Object> ownCounters = new LinkedHashMap<>((Map<?, ?>) own.get("counters"));
        assertEquals(0L, ((JsonReader.Number) ownCounters.remove("researcher_promotions_skipped")).asLong());
        assertEquals(nat.get("counters"), ownCounters);
        assertEquals(40L, ((JsonReader.Number) ownCounters.get("nr_tlb_remote_flush")).asLong(), "2 threads x 20 munmaps");
        for (String part : List.of("metrics", "cpu_time_ns", "cost_breakdown", "sim")) {
            assertEquals(nat.get(part), own.get(part), part);
        }

        String page = Files.readString(html);
        assertTrue(page.contains("<svg"), "the cost charts");
        assertTrue(page.contains("<h1>pvtlb assess " + DESIGN + "</h1>"), page.substring(0, Math.min(600, page.length())));
    }
}

package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @Test
    void variantsAreColumnsWithTheChangeInPercent(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("c.html");
        Path csv = dir.resolve("c.csv");
        MainTest.Result r = MainTest.pvtlb("compare", "munmap-storm", "--vary", "native.smtSiblingDedup=false,true",
                "--set", "ops=3", "--set", "threads=8", "--set", "smt.sharedTlb=true", "--reps", "2", "--html", html.toString(),
                "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        String received = r.out().lines().filter(l -> l.startsWith("nr_tlb_remote_flush_received")).findFirst().orElseThrow();
        // Deduplicating SMT siblings leaves a target whose sibling is in the mask to the sibling: about
        // half the flushes received go (82 -> 39.5 a repetition; which CPUs are in the mask at each
        // flush moves with the run's timing).
        assertTrue(received.contains("-51.8%"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("munmap_ns (ns)")), r.out());
        String page = Files.readString(html);
        assertTrue(page.contains("<svg") && page.contains("<rect") && !page.contains("<script"), page);
        // munmap_ns and access_ns both differ (an access's cost now depends on the caches the
        // flushes leave): one chart each, nothing listed as the same.
        assertTrue(!page.contains("Not charted"), page);
        assertEquals(2, page.split("<svg", -1).length - 1, page);
        // The numbers are an HTML table, not a preformatted dump.
        assertTrue(page.contains("<tr><td>nr_tlb_remote_flush_received (per rep)</td><td>82</td><td>39.50 -51.8%</td></tr>"), page);
        assertTrue(!page.contains("<pre"), page);
        assertTrue(Files.readString(csv).startsWith("variant,metric,mean,stdev,unit,change_pct\n"));
    }

    @Test
    void metricsTheVariantsDoNotChangeAreListedNotCharted(@TempDir Path dir) throws Exception {
        // smt.flushDropsSibling acts only on a TLB shared by SMT siblings (smt.sharedTlb), which this guest does not have.
        Path html = dir.resolve("same.html");
        MainTest.Result r = MainTest.pvtlb("compare", "munmap-storm", "--vary", "smt.flushDropsSibling=true,false",
                "--set", "ops=3", "--set", "threads=8", "--reps", "2", "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<p class='same'>Not charted, the same in every variant: munmap_ns, access_ns.</p>"), page);
        assertEquals(0, page.split("<svg", -1).length - 1, page);
    }

    @Test
    void aSweptParameterGivesOneRowPerValueAndALineChart(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("s.html");
        MainTest.Result r = MainTest.pvtlb("compare", "tlb-flush2", "--vary", "backend=native,invlpgb", "--vary", "threads=2,4",
                "--set", "ops=1", "--set", "vcpus=4", "--reps", "1", "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("threads  backend=native"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("2 ")) && r.out().lines().anyMatch(l -> l.startsWith("4 ")), r.out());
        String page = Files.readString(html);
        assertEquals(2, page.split("<polyline", -1).length - 1, page);
    }

    @Test
    void sameSeedsGiveTheSameJson(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        for (Path p : new Path[] {a, b}) {
            assertEquals(0, MainTest.pvtlb("compare", "kernbench", "--vary", "tableFree=immediate,rcu", "--set", "ops=4",
                    "--set", "vcpus=2", "--set", "threads=2", "--reps", "1", "--json", p.toString()).code());
        }
        assertEquals(Files.readString(a).replaceAll("\"host_timing\": \\{[^}]*\\}", ""),
                Files.readString(b).replaceAll("\"host_timing\": \\{[^}]*\\}", ""));
    }

    @Test
    void badVaryIsExitTwoBeforeAnyRun() {
        for (String v : new String[] {"threads", "threads=", "=1,2", "threads=1,,2", "threads=1,1", "nosuch=1,2",
            "native.concurrentFlush=maybe,true", "vcpus=1,100000000"}) {
            MainTest.Result r = MainTest.pvtlb("compare", "munmap-storm", "--vary", v);
            assertEquals(2, r.code(), v + " -> " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    /** Variants run on a pool; the table is the same bytes whatever the pool's size, and a pool of none is refused. */
    @Test
    void variantsRunAtOnceGiveTheSameTableAsOneAtATime() {
        String[] args = {"compare", "munmap-storm", "--vary", "threads=2,4", "--vary", "lazy=off,skip", "--set", "ops=20",
            "--quiet", "--parallel", "1"};
        MainTest.Result one = MainTest.pvtlb(args);
        assertEquals(0, one.code(), one.err());
        args[args.length - 1] = "2";
        MainTest.Result two = MainTest.pvtlb(args);
        assertEquals(one.out(), two.out());
        assertTrue(one.out().contains("2        3798 (8.69)   3794 (6.42) -0.1%"), one.out());
        args[args.length - 1] = "0";
        MainTest.Result none = MainTest.pvtlb(args);
        assertEquals(2, none.code());
        assertEquals("pvtlb: --parallel must be at least 1, got 0\n", none.err());
    }
}

package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.workload.Workload;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import dev.pvtlb.report.RunReportJson;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in benchmarks show the effect their reference thread is about, in the model's own terms. */
class WorkloadBehaviourTest {
    static RunReport run(String name, String backend, String... sets) {
        Scenario s = Scenario.of(name).backend(backend);
        for (String kv : sets) {
            ScenarioArgs.set(s, kv, "--set");
        }
        return Runner.run(s);
    }

    static double metric(RunReport r, String m) {
        return r.metrics().get(m).mean();
    }

    @Test
    void everyBenchmarkIsRegisteredWithThreadsAndOps() {
        for (String n : List.of("sysbench-mmap-rndwr", "netperf-rr", "kernbench", "mprotect-noise", "ebizzy", "tlb-flush2")) {
            Workload w = Workloads.byName(n);
            assertTrue(w.parameters().containsKey("threads") && w.parameters().containsKey("ops"), n);
        }
    }

    @Test
    void msyncWriteProtectsEachDirtyPageWithAFlushOnTheOtherCpus() {
        // One thread: the mm runs on one CPU, writeback flushes locally only.
        RunReport one = run("sysbench-mmap-rndwr", "native", "threads=1", "ops=50", "fsync_freq=25", "pages=64", "files=1");
        assertEquals(0, one.counters().get("nr_tlb_remote_flush"));
        assertTrue(one.counters().get("nr_tlb_local_flush_one") > 0, one.counters().toString());
        RunReport four = run("sysbench-mmap-rndwr", "native", "threads=4", "ops=50", "fsync_freq=25", "pages=64", "files=1");
        assertTrue(four.counters().get("nr_tlb_remote_flush") > 0);
        // Every write after a writeback of its page takes a write-protect fault: more faults than pages.
        assertTrue(four.counters().get("page_faults") > 64, four.counters().toString());
        assertTrue(metric(four, "throughput") > 0);
    }

    @Test
    void idleWithoutLazyTlbSpendsTimeInSwitchMm() {
        RunReport off = run("netperf-rr", "native", "lazy=off", "threads=4", "ops=20");
        RunReport skip = run("netperf-rr", "native", "lazy=skip", "threads=4", "ops=20");
        assertTrue(metric(off, "switch_mm_share") > 2 * metric(skip, "switch_mm_share"),
                metric(off, "switch_mm_share") + " vs " + metric(skip, "switch_mm_share"));
        assertTrue(metric(off, "transactions_per_s") < metric(skip, "transactions_per_s"));
    }

    @Test
    void broadcastTlbiSlowsTheVictimOnlyWhenTheNoiseRuns() {
        double quiet = metric(run("mprotect-noise", "arm64", "noise=false", "ops=50"), "victim_ms");
        double noisy = metric(run("mprotect-noise", "arm64", "noise=true", "ops=50"), "victim_ms");
        double local = metric(run("mprotect-noise", "arm64", "noise=true", "ops=50", "arm64.flush=local"), "victim_ms");
        assertTrue(noisy > quiet, noisy + " vs " + quiet);
        // Local TLBIs never reach the victim; the noise's loads share its socket's LLC, which
        // costs it 10 ns in 87 us (0.087353 ms alone, 0.087363 beside the noise).
        assertTrue(local > quiet && local < quiet * 1.001, local + " vs " + quiet);
    }

    @Test
    void kernbenchFreesThePageTablesOfEveryJob() {
        RunReport r = run("kernbench", "native", "threads=4", "ops=8", "vcpus=4");
        assertTrue(r.counters().get("page_tables_freed") >= 8, r.counters().toString());
        assertTrue(metric(r, "system_s") > 0 && metric(r, "elapsed_s") > 0);
    }

    @Test
    void broadcastInvalidationSendsNoIpisInTlbFlush2() {
        RunReport nat = run("tlb-flush2", "native", "threads=8", "vcpus=8", "ops=2");
        RunReport inv = run("tlb-flush2", "invlpgb", "threads=8", "vcpus=8", "ops=2");
        assertTrue(nat.counters().get("ipis_sent") > 0);
        assertEquals(0, inv.counters().get("ipis_sent"));
    }

    @Test
    void theTestProgramFlushesOnePagePerIterationWhereTheRegionShapeFlushesOncePerLoop() {
        // tests/tlb_flush2.c: per page, a write fault, a one-page madvise() and a read fault (the zero page);
        // munmap() after the mapping's last page. 2 threads x 8 iterations over 4-page mappings: 32 faults,
        // 16 one-page flushes and one munmap() each (the 8th iteration ends the run before the second).
        RunReport program = run("tlb-flush2", "native", "shape=tlb_flush2.c", "threads=2", "vcpus=2", "pages=4", "ops=8",
                "zeroPage=on");
        assertEquals(32, program.counters().get("page_faults"));
        assertEquals(18, program.counters().get("nr_tlb_remote_flush"));
        // The same 16 page writes as 2 loops of 4 pages per thread: one madvise() of the region per loop.
        RunReport region = run("tlb-flush2", "native", "threads=2", "vcpus=2", "pages=4", "ops=2");
        assertEquals(16, region.counters().get("page_faults"));
        assertEquals(4, region.counters().get("nr_tlb_remote_flush"));
    }

    @Test
    void ebizzyRunsInAVirtualMachineWithOtherVmsOnTheHost() {
        RunReport r = run("ebizzy", "kvm", "threads=8", "vcpus=8", "ops=2", "vms=2", "pcpus=8");
        assertTrue(metric(r, "records_per_s") > 0);
        assertTrue(r.counters().get("vmexits") > 0, r.counters().toString());
    }

    @Test
    void sameSeedGivesByteIdenticalReports() {
        for (String n : List.of("sysbench-mmap-rndwr", "netperf-rr", "kernbench", "tlb-flush2")) {
            String a = strip(RunReportJson.toJson(run(n, "native", "ops=4")));
            String b = strip(RunReportJson.toJson(run(n, "native", "ops=4")));
            assertEquals(a, b, n);
        }
    }

    /** Everything but host_timing, the one part allowed to differ. */
    static String strip(String json) {
        return json.substring(0, json.indexOf("\"host_timing\""));
    }
}

package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MutantsCommandTest {
    /**
     * Two bugs, each on its own backend, against every catalogue entry and two workloads: the
     * schedule of each first hit, exactly (the model is deterministic), and the same table for one
     * hunt at a time as for two.
     */
    @Test
    void theTableNamesTheFirstHitOfEachBugInEachScenario() {
        String[] args = {"mutants", "--bugs", "tlb-gen-not-bumped,kvm-entry-drops-flush", "--workloads", "tlb-torture,munmap-storm",
            "--budget", "50", "--workload-budget", "20", "--quiet"};
        MainTest.Result r = pvtlb(args);
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("bug                        backend  catalogue                                tlb-torture munmap-storm", lines.get(2));
        assertEquals("tlb-gen-not-bumped         native   9 of 11 (arm64-stale-cpumask 1)          1           1 walk", lines.get(3));
        assertEquals("kvm-entry-drops-flush      kvm      1 of 11 (kvm-preempted-flush 3)          19          -", lines.get(4));
        assertEquals("The catalogue finds 2 of 2; the workloads (torture included) find 2 of 2.", lines.get(6));
        String[] serial = java.util.Arrays.copyOf(args, args.length + 2);
        serial[args.length] = "--parallel";
        serial[args.length + 1] = "1";
        assertEquals(r.out(), pvtlb(serial).out());
    }

    @Test
    void backendsGiveARowEach() {
        MainTest.Result r = pvtlb("mutants", "--bugs", "tlb-gen-not-bumped", "--backends", "native,kvm", "--workloads", "tlb-torture",
                "--budget", "20", "--workload-budget", "1", "--quiet");
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("tlb-gen-not-bumped         native", lines.get(3).substring(0, 33));
        assertEquals("tlb-gen-not-bumped         kvm   ", lines.get(4).substring(0, 33));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--bugs nope; pvtlb: --bugs: 'nope' is not a bug to plant, or is given twice (bugs: range-flush-no-invlpg, tlb-gen-not-bumped, "
            + "switch-mm-no-cpumask, tables-freed-before-flush, kvm-entry-drops-flush, host-drops-deferred-flush, lazy-skips-freed-tables, "
            + "scf-no-wait, rcu-gp-instant, call-rcu-before-flush)",
        "--bugs none; pvtlb: --bugs: 'none' is not a bug to plant, or is given twice (bugs: range-flush-no-invlpg, tlb-gen-not-bumped, "
            + "switch-mm-no-cpumask, tables-freed-before-flush, kvm-entry-drops-flush, host-drops-deferred-flush, lazy-skips-freed-tables, "
            + "scf-no-wait, rcu-gp-instant, call-rcu-before-flush)",
        "--workloads munmap-storm,munmap-storm; pvtlb: --workloads: a workload is given twice",
        "--budget 0; pvtlb: --budget and --workload-budget must be >= 1 and --seconds a number > 0",
        "--parallel 0; pvtlb: --parallel must be between 1 and 256, got 0"
    })
    void badInputIsOneLineAndExitTwo(String option, String message) {
        String[] parts = option.split(" ");
        MainTest.Result r = pvtlb("mutants", parts[0], parts[1], "--quiet");
        assertEquals(2, r.code(), r.out());
        assertEquals(message, r.err().strip());
    }
}

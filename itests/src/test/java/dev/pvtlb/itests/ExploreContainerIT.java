package dev.pvtlb.itests;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The explorer's catalogue verdicts per backend, each in its own container: exit 1 and the
 * hazard kind for an unsafe variant, exit 0 for its fix. Budgets are small: each unsafe
 * variant is found within a few schedules (see CatalogueTest for the full budgets).
 */
class ExploreContainerIT {
    @BeforeEach
    void engine() {
        DockerEngine.requireOrSkip();
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3} {5}")
    @CsvSource(delimiter = ';', value = {
        "native; smt-sibling-dedup; native.smtSiblingDedup=true; 1; STALE_TRANSLATION; random",
        "native; smt-sibling-dedup; native.smtSiblingDedup=false; 0; SAFE; random",
        "xen-pv; gup-fast-vs-free; tableFree=immediate; 1; WALK_AFTER_FREE; random",
        "xen-pv; gup-fast-vs-free; tableFree=rcu; 0; SAFE; random",
        "hyperv; gup-fast-vs-free; tableFree=immediate; 1; WALK_AFTER_FREE; random",
        // At the profile's 3 ms host slice the random strategy needs a few hundred to a few thousand
        // schedules to line the two vCPUs' re-entries up; pct's change points find it at 5.
        "kvm; kvm-preempted-flush; kvm.hostClearPreempted=plain-write; 1; STALE_TRANSLATION; pct",
        "kvm; kvm-preempted-flush; kvm.hostClearPreempted=xchg; 0; SAFE; pct",
        "arm64; arm64-stale-cpumask; arm64.flush=local arm64.mmCpumask=stale; 1; STALE_TRANSLATION; random",
        "arm64; arm64-stale-cpumask; arm64.flush=broadcast arm64.mmCpumask=stale; 0; SAFE; random",
        "invlpgb; lazy-speculative-walk; lazy=skip; 0; SAFE; random",
        "rar; lazy-speculative-walk; lazy=skip-nofree; 1; WALK_AFTER_FREE; random"
    })
    void catalogueVerdict(String backend, String scenario, String sets, int exit, String verdict, String strategy) {
        List<String> args = new ArrayList<>(List.of("explore", scenario, "--backend", backend, "--seed", "3", "--budget", "300",
                "--strategy", strategy));
        for (String kv : sets.split(" ")) {
            args.add("--set");
            args.add(kv);
        }
        ContainerRun run = PvtlbContainers.run(args, PvtlbContainers.firstCpuset());
        run.check(run.exitCode() == exit, () -> "explore exited " + run.exitCode() + ", expected " + exit);
        String want = exit == 0 ? "verdict: SAFE (no hazard in 300 schedules)" : "verdict: HAZARD " + verdict + " found";
        run.check(run.stdout().contains(want), () -> "no '" + want + "' in the output");
    }
}

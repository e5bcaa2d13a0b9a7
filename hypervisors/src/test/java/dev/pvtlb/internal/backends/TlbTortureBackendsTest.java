package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * tlb-torture on the backends other than native (TlbTortureTest in the guest module has native):
 * SAFE on the unmodified model at 2 and 8 CPUs, run (the flush mechanism's counters pinned) and
 * explored; and the planted bugs it finds there, the host-side ones included (a second VM shares
 * each pCPU, so flushes meet preempted vCPUs), with the schedule of the first hit (seed 1, random
 * strategy, speculative walks and the backend's memory model as {@code pvtlb explore} has them).
 */
class TlbTortureBackendsTest {
    static Scenario torture(String backend, int cpus, String sets) {
        return CatalogueTest.scenario("tlb-torture", backend, ("vcpus=" + cpus + " " + sets).strip(), 1);
    }

    static ExploreResult explore(Scenario s, int budget) {
        s.set("speculation", "on").set("memoryModel", Explorer.defaultMemoryModel(s.backend()));
        return new Explorer(s).explore(new RandomStrategy(1), budget, 1e9);
    }

    @ParameterizedTest(name = "{0} {1} CPUs")
    @CsvSource(delimiter = ';', value = {
        "kvm; 2; remote=3 received=2 hypervisor=0 deferred=0 broadcast=0 rar=0 preempted=0",
        "kvm; 8; remote=34 received=42 hypervisor=0 deferred=0 broadcast=0 rar=0 preempted=1",
        "xen-pv; 2; remote=0 received=0 hypervisor=5 deferred=0 broadcast=0 rar=0 preempted=0",
        "xen-pv; 8; remote=0 received=0 hypervisor=79 deferred=7 broadcast=0 rar=0 preempted=0",
        "hyperv; 2; remote=0 received=0 hypervisor=9 deferred=1 broadcast=0 rar=0 preempted=0",
        "hyperv; 8; remote=0 received=0 hypervisor=76 deferred=9 broadcast=0 rar=0 preempted=0",
        "pvm; 2; remote=0 received=0 hypervisor=814 deferred=0 broadcast=0 rar=0 preempted=0",
        "pvm; 8; remote=0 received=0 hypervisor=3326 deferred=15 broadcast=0 rar=0 preempted=0",
        "arm64; 2; remote=0 received=0 hypervisor=0 deferred=0 broadcast=420 rar=0 preempted=0",
        "arm64; 8; remote=0 received=0 hypervisor=0 deferred=0 broadcast=816 rar=0 preempted=0",
        // INVLPGB broadcasts only for an mm active on 4 or more CPUs: at 2 CPUs the IPI fallback.
        "invlpgb; 2; remote=3 received=3 hypervisor=0 deferred=0 broadcast=0 rar=0 preempted=0",
        "invlpgb; 8; remote=0 received=0 hypervisor=0 deferred=0 broadcast=51 rar=0 preempted=0",
        "rar; 2; remote=7 received=0 hypervisor=0 deferred=0 broadcast=0 rar=7 preempted=0",
        "rar; 8; remote=54 received=0 hypervisor=0 deferred=0 broadcast=0 rar=79 preempted=0"})
    void theUnmodifiedModelIsSafe(String backend, int cpus, String counts) {
        RunReport r = Runner.run(torture(backend, cpus, ""));
        assertEquals(0, r.hazards().size(), r.hazards().toString());
        assertEquals(counts, String.format("remote=%d received=%d hypervisor=%d deferred=%d broadcast=%d rar=%d preempted=%d",
                r.counters().get("nr_tlb_remote_flush"), r.counters().get("nr_tlb_remote_flush_received"),
                r.counters().get("hypervisor_flushes"), r.counters().get("deferred_flushes"),
                r.counters().get("broadcast_flushes"), r.counters().get("remote_action_requests"),
                r.counters().get("vcpu_preemptions")));
        ExploreResult e = explore(torture(backend, cpus, ""), 10);
        assertTrue(e.safe(), e.safe() ? "" : e.hazard().toString());
        assertEquals(10, e.schedules());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource(delimiter = ';', value = {
        // bug; backend; other settings; budget; kind; schedule of the first hit
        "kvm-entry-drops-flush; kvm; ; 100; STALE_TRANSLATION; 19",
        "host-drops-deferred-flush; xen-pv; ; 300; STALE_TRANSLATION; 112",
        "host-drops-deferred-flush; hyperv; ; 100; WALK_AFTER_FREE; 5",
        "host-drops-deferred-flush; pvm; ; 100; WALK_AFTER_FREE; 2",
        "tlb-gen-not-bumped; kvm; ; 100; STALE_TRANSLATION; 1",
        "range-flush-no-invlpg; rar; ; 100; STALE_TRANSLATION; 1",
        "switch-mm-no-cpumask; pvm; ; 100; STALE_TRANSLATION; 1",
        "scf-no-wait; kvm; ; 100; STALE_TRANSLATION; 16",
        "lazy-skips-freed-tables; rar; ; 100; WALK_AFTER_FREE; 7",
        "tables-freed-before-flush; arm64; ; 100; WALK_AFTER_FREE; 8",
        "call-rcu-before-flush; arm64; rcu=preempt; 100; WALK_AFTER_FREE; 21",
        // A lockless walker stalled by an NMI outlasts a flush no IPI made wait for it.
        "rcu-gp-instant; xen-pv; ; 100; WALK_AFTER_FREE; 16",
    })
    void findsThePlantedBugs(String bug, String backend, String sets, int budget, HazardKind kind, long firstHit) {
        ExploreResult r = explore(torture(backend, 4, "inject=" + bug + " " + (sets == null ? "" : sets)), budget);
        assertFalse(r.safe(), bug + " on " + backend + ": nothing in " + r.schedules() + " schedules");
        assertEquals(kind, r.hazard().kind(), r.hazard().toString());
        assertEquals(firstHit, r.foundAt());
    }
}

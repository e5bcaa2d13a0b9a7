package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.scenario.ShootdownLoad;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The contract every backend must keep, run once per backend by a subclass: under a load that
 * zaps, unmaps and write-protects while seven other CPUs use the memory, no CPU uses a
 * translation after the flush covering its change returned (a deferred design may leave a
 * vCPU that is not running stale, but must flush it before it runs), and the counters add
 * up. Virtualized backends are also run overcommitted: two VMs of 8 vCPUs on 4 pCPUs with a
 * short host slice, so vCPUs are preempted and halted in the middle of flushes.
 */
abstract class BackendContract {
    /** The backend's registered name. */
    abstract String backend();

    /** Knob settings for this run of the contract. */
    Map<String, String> knobs() {
        return Map.of();
    }

    /** What this backend's counters must show after the load; {@code c} reads a counter. */
    abstract void countersAddUp(Scripted s);

    Scripted run(long seed, boolean overcommit) {
        PvBackend b = PvBackends.byName(backend());
        GuestConfig.Builder cfg = GuestConfig.builder().topology(new Topology(1, 4, 2)).seed(seed).backend(b);
        knobs().forEach(cfg::knob);
        if (overcommit && b.virtualized()) {
            // 200 us slices (a test setting, not a calibrated figure): many preemptions in a short run.
            cfg.pcpus(4).vms(2).profile(Profile.load(Profile.DEFAULT).with(Map.of("host.slice.ns", 200_000.0), "test"));
        }
        return ShootdownLoad.run(cfg.build(), 12);
    }

    @ParameterizedTest(name = "seed {0}, overcommit {1}")
    @CsvSource({"1,false", "2,false", "3,true", "4,true"})
    void noTranslationIsUsedAfterItsFlushReturned(long seed, boolean overcommit) {
        Scripted s = run(seed, overcommit);
        assertEquals(0, s.guest.liveTasks(), "every task ran to its end");
        assertEquals(0, s.guest.hazards().count(), () -> s.guest.hazards().hazards().get(0).toString());
        long flushes = s.count(Counter.NR_TLB_REMOTE_FLUSH) + s.count(Counter.HYPERCALLS)
                + s.count(Counter.BROADCAST_FLUSHES) + s.count(Counter.REMOTE_ACTION_REQUESTS);
        assertTrue(flushes >= 12, "the load's remote flushes went through the backend: " + flushes);
    }

    @ParameterizedTest(name = "seed {0}, overcommit {1}")
    @CsvSource({"1,false", "3,true"})
    void countersAddUp(long seed, boolean overcommit) {
        Scripted s = run(seed, overcommit);
        assertEquals(s.count(Counter.IPIS_SENT), s.count(Counter.IPIS_RECEIVED), "every IPI sent was received");
        assertTrue(s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED) <= s.count(Counter.IPIS_RECEIVED),
                "a remote flush handler runs only from a received IPI");
        if (!PvBackends.byName(backend()).virtualized()) {
            assertEquals(0, s.count(Counter.HYPERCALLS), "bare metal makes no hypercalls");
            assertEquals(0, s.count(Counter.VMEXITS), "bare metal has no VM exits");
            assertEquals(0, s.count(Counter.HYPERVISOR_FLUSHES));
        }
        countersAddUp(s);
    }
}

package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which profile figures a run reads ({@code RunReport.profileKeysRead()}), the ground on which
 * {@code validate --sensitivity} leaves a figure no run read at its value: a design's own figures
 * are read by that design alone, and a figure a run does not read cannot change its result.
 */
class ProfileKeysReadTest {
    /** The figures of one flush design each, read by its backend's constructor and nowhere else. */
    private static final List<String> DESIGN_KEYS = List.of("invlpgb.count_max", "invlpgb.ns", "tlbsync.ns",
            "rar.latency.ns", "rar.send.ns", "rar.target.ns",
            "tlbi.bystander.ns", "tlbi.bystander.sync.ns", "tlbi.dvm.snoop.ns", "tlbi.max_ops", "tlbi.ns", "tlbi.sync.ns");

    private static Set<String> designKeysRead(String backend) {
        RunReport r = Runner.run(Scenario.of("munmap-storm").backend(backend).seed(3).set("ops", "20"));
        assertTrue(r.profileKeysRead().contains("ipi.send.ns"), backend + " reads the kernel's figures too");
        // Read by the scenario for its quantum, from the same default profile the guest boots with.
        assertTrue(r.profileKeysRead().contains("model.quantum.ns"), backend);
        Set<String> read = new TreeSet<>(r.profileKeysRead());
        read.retainAll(DESIGN_KEYS);
        return read;
    }

    @Test
    void eachDesignReadsItsOwnFiguresAndNoOtherDesignsFigures() {
        assertEquals(Set.of(), designKeysRead("native"));
        assertEquals(Set.of(), designKeysRead("kvm"));
        assertEquals(Set.of("invlpgb.count_max", "invlpgb.ns", "tlbsync.ns"), designKeysRead("invlpgb"));
        assertEquals(Set.of("rar.latency.ns", "rar.send.ns", "rar.target.ns"), designKeysRead("rar"));
        assertEquals(Set.of("tlbi.bystander.ns", "tlbi.bystander.sync.ns", "tlbi.dvm.snoop.ns", "tlbi.max_ops", "tlbi.ns",
                "tlbi.sync.ns"), designKeysRead("arm64"));
    }

    @Test
    void aFigureARunDoesNotReadLeavesItsReportAsItIsAndOneItReadsDoesNot() {
        Scenario base = Scenario.of("munmap-storm").backend("native").seed(3).set("ops", "20");
        RunReport at = Runner.run(base);
        RunReport unread = Runner.run(base.copy().set("profile.tlbi.sync.ns", "4000"));
        RunReport read = Runner.run(base.copy().set("profile.ipi.send.ns", "300"));
        assertEquals(at.toMap().get("metrics"), unread.toMap().get("metrics"));
        assertEquals(at.counters(), unread.counters());
        assertEquals(at.cpuTimeNs(), unread.cpuTimeNs());
        assertNotEquals(at.cpuTimeNs(), read.cpuTimeNs());
    }

    /** Figures only one mechanism charges, read at its first use (FigureOnUse), not at boot. */
    private static final List<String> MECHANISM_KEYS = List.of("fault.dax.ns", "page.lru_lock.page.ns", "page.zone_lock.page.ns",
            "pgtable.free.ns", "rcu.call.ns", "rcu.callback.ns", "shmem.release.ns");

    private static Set<String> mechanismKeysRead(Scenario s) {
        Set<String> read = new TreeSet<>(Runner.run(s).profileKeysRead());
        read.retainAll(MECHANISM_KEYS);
        return read;
    }

    @Test
    void aMechanismsFiguresAreReadByTheRunsThatRunIt() {
        // munmap-storm frees its page tables after a grace period (RCU table freeing), no DAX file,
        // no shmem, page locks off by default.
        assertEquals(Set.of("pgtable.free.ns", "rcu.call.ns", "rcu.callback.ns"),
                mechanismKeysRead(Scenario.of("munmap-storm").backend("native").seed(3).set("ops", "20")));
        assertEquals(Set.of("pgtable.free.ns", "rcu.call.ns", "rcu.callback.ns", "page.lru_lock.page.ns", "page.zone_lock.page.ns"),
                mechanismKeysRead(Scenario.of("munmap-storm").backend("native").seed(3).set("ops", "20").set("pageLocks", "on")));
        // sysbench's writes to a DAX file fault through the filesystem; without DAX they do not.
        Scenario sysbench = Scenario.of("sysbench-mmap-rndwr").backend("native").seed(3).set("threads", "2").set("ops", "20")
                .set("pages", "1024").set("files", "1");
        assertEquals(Set.of("fault.dax.ns"), mechanismKeysRead(sysbench));
        assertEquals(Set.of(), mechanismKeysRead(sysbench.copy().set("dax", "false")));
    }
}

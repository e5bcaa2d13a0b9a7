package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.smp.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * host.balance=periodic: what moves a vCPU between two busy pCPUs. wake_affine() takes a woken
 * vCPU to its waker's pCPU unless that one is the more loaded by over 8% (imbalance_pct 117);
 * rebalance_domains() lets each busy pCPU pull, every domain weight x busy_factor ms, half the
 * difference to the domain's busiest pCPU. Without them a pCPU's queue grew to 16-22 runnable vCPUs
 * while 20 others ran one (kvm-boost's 3-VM ebizzy, seed 2).
 */
class BusyBalanceTest {
    private static final long MS = 1_000_000;

    /** pCPU {@code id} running one vCPU and holding {@code waiting} more, runnable, off their CPU since 0 at vruntimes 1, 2 .. ms. */
    private static Pcpu busy(int id, int waiting) {
        Pcpu pc = new Pcpu(id, null);
        HostVcpu cur = new HostVcpu(null, 1, id * 100, pc);
        cur.state = VcpuState.RUNNING;
        pc.vcpus.add(cur);
        pc.current = cur;
        for (int i = 1; i <= waiting; i++) {
            HostVcpu v = new HostVcpu(null, 1, id * 100 + i, pc);
            v.state = VcpuState.RUNNABLE;
            v.vruntime = (waiting + 1 - i) * MS; // the last added is the least
            pc.vcpus.add(v);
        }
        return pc;
    }

    @Test
    void aWokenVcpuGoesToItsWakersPcpuUnlessThatOneIsTheMoreLoaded() {
        Pcpu prev = busy(0, 2); // 3 runnable
        Pcpu lighter = busy(1, 1);
        assertSame(lighter, IdleBalance.wakeAffine(prev, lighter), "2 runnable there: 200 <= 324");
        Pcpu level = busy(2, 2);
        assertSame(level, IdleBalance.wakeAffine(prev, level), "3 and 3: 300 <= 324, the waker's pCPU");
        Pcpu loaded = busy(3, 3);
        assertSame(prev, IdleBalance.wakeAffine(prev, loaded), "4 against 3: 400 > 324, it stays");
        assertSame(prev, IdleBalance.wakeAffine(prev, null), "no waker on this host: it stays");
    }

    @Test
    void aBusyPcpuPullsHalfTheDifferenceLeastVruntimeFirstAndNoneCacheHot() {
        Pcpu light = busy(0, 0); // 1 runnable
        Pcpu heavy = busy(1, 5); // 6 runnable
        Pcpu middle = busy(2, 2);
        Pcpu[] all = {light, heavy, middle};
        PeriodicBalance b = new PeriodicBalance(all, null, 32);
        assertEquals(1, b.domainsOf(0), "no host topology: the host is one domain");
        assertEquals(3 * 32 * MS, b.interval(0, 0), "sd_weight 3 ms x busy_factor 32");
        assertEquals(32 * MS, b.firstAt(0, 3, 0));
        assertEquals(96 * MS, b.firstAt(2, 3, 0));
        List<HostVcpu> pulled = b.pulls(light, 0, 10 * MS, MS / 2);
        assertEquals(List.of(heavy.vcpus.get(5), heavy.vcpus.get(4)), pulled, "(6 - 1) / 2 = 2, the two least vruntimes");
        heavy.vcpus.get(5).offCpuSince = 10 * MS; // just descheduled: cache-hot (sched_migration_cost 0.5 ms)
        assertEquals(List.of(heavy.vcpus.get(4), heavy.vcpus.get(3)), b.pulls(light, 0, 10 * MS, MS / 2));
        assertEquals(1, b.pulls(middle, 0, 10 * MS, MS / 2).size(), "(6 - 3) / 2 = 1");
        assertEquals(List.of(), b.pulls(heavy, 0, 10 * MS, MS / 2), "the busiest pulls from none");
        Pcpu[] close = {busy(0, 1), busy(1, 2)};
        assertEquals(List.of(), new PeriodicBalance(close, null, 32).pulls(close[0], 0, 10 * MS, MS / 2),
                "2 and 3 runnable: within one, nothing moves");
    }

    @Test
    void onTwoSocketsEachPcpuBalancesItsSocketThenTheHost() {
        Topology host = new Topology(2, 2, 1);
        Pcpu[] all = new Pcpu[4];
        for (int i = 0; i < 4; i++) {
            all[i] = new Pcpu(i, null, host);
        }
        PeriodicBalance b = new PeriodicBalance(all, host, 16);
        assertEquals(2, b.domainsOf(0));
        assertEquals(2 * 16 * MS, b.interval(0, 0), "a socket of 2 pCPUs, busy_factor 16 (5.10+)");
        assertEquals(4 * 16 * MS, b.interval(0, 1), "the host of 4");
    }

    /**
     * A run with periodic balancing ends when its tasks do: 4 vCPUs on 2 pCPUs balance first at
     * 32 and 64 ms (2 ms x 32, spread), and the run ends well before, with no balance left queued to
     * hold its clock open, as the same run without them does.
     */
    @Test
    void theBalancesStopWithTheGuestsLastTask() {
        Scenario s = Scenario.of("munmap-storm").backend("kvm").seed(3).set("vcpus", "4").set("threads", "4").set("pcpus", "2");
        RunReport without = Runner.run(s);
        RunReport with = Runner.run(s.set("host.balance", "periodic"));
        assertTrue(without.simulatedS() < 0.032, "the workload ends before the first balance: " + without.simulatedS());
        assertTrue(with.simulatedS() < 0.032, "and so does the run: " + with.simulatedS());
    }
}

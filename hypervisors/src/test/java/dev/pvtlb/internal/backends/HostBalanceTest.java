package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import org.junit.jupiter.api.Test;

/**
 * host.balance=idle: the host's fair scheduler moves vCPU threads to idle pCPUs (x86-skylake: the
 * host's switch to a vCPU thread and its VM entry 2500 + 600 ns, host slice 3 ms; sched_migration_cost 0.5 ms). Three vCPUs on two pCPUs: vCPUs 0
 * and 2 share pCPU 0, vCPU 1 has pCPU 1. Halt polling is off, so a halted vCPU leaves its pCPU at once.
 */
class HostBalanceTest {
    private static Scripted threeOnTwo(String balance, boolean zeroSleepsFirst) {
        GuestConfig cfg = GuestConfig.builder().cpus(3).seed(13).backend("kvm").pcpus(2)
                .knob("kvm.haltPoll", "false").knob("host.balance", balance).build();
        Scripted s = new Scripted(cfg);
        s.spawn(1, Scripted.sleep(50_000_000));
        if (zeroSleepsFirst) {
            s.spawn(0, Scripted.sleep(1_000_000), new Spin(100_000, 10_000));
            s.spawn(2, new Spin(20_000_000, 10_000));
        } else {
            s.spawn(0, new Spin(20_000_000, 10_000));
            s.spawn(2, new Spin(100_000, 10_000));
        }
        s.run();
        return s;
    }

    /**
     * vCPU 1 halts at once and leaves pCPU 1 idle while vCPU 2 waits behind vCPU 0: newidle_balance()
     * finds vCPU 2 cache-hot (it has not been off a CPU for 0.5 ms), and it moves when it cools.
     */
    @Test
    void anIdlePcpuPullsAWaitingVcpuOnceItIsNoLongerCacheHot() {
        Scripted idle = threeOnTwo("idle", false);
        assertEquals(1, idle.count(Counter.VCPU_MIGRATIONS));
        assertEquals(500_000 + 3100, idle.guest.cpuTime().get(2, TimeCategory.STOLEN), "waited 0.5 ms, then a switch and VM entry");
        Scripted none = threeOnTwo("none", false);
        assertEquals(0, none.count(Counter.VCPU_MIGRATIONS));
        assertEquals(1_903_100, none.guest.cpuTime().get(2, TimeCategory.STOLEN), "waited for vCPU 0's slice (seed 13: 1.9 ms)");
    }

    /** vCPU 0 sleeps 1 ms; woken while vCPU 2 runs its pCPU, it goes to pCPU 1, idle since vCPU 1 halted. */
    @Test
    void aVcpuWokenWhileItsPcpuIsBusyGoesToAnIdleOne() {
        Scripted idle = threeOnTwo("idle", true);
        assertEquals(1, idle.count(Counter.VCPU_MIGRATIONS));
        assertEquals(3100, idle.guest.cpuTime().get(0, TimeCategory.STOLEN), "only its switch and VM entry on pCPU 1");
        Scripted none = threeOnTwo("none", true);
        assertEquals(0, none.count(Counter.VCPU_MIGRATIONS));
        // EEVDF: the woken vCPU waits while vCPU 2 runs to parity; seed 13: 2.9 ms.
        assertEquals(2_903_305, none.guest.cpuTime().get(0, TimeCategory.STOLEN));
    }
}

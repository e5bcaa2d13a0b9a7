package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.stats.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * KVM's host mechanisms with concrete values (x86-skylake: PLE window 1365 ns, VM entry 600 ns,
 * hypercall 600 ns, halt_poll_ns 200 us, host slice 3 ms; a vCPU thread switched in pays the
 * host's context switch, 2500 ns, before its entry: 3100 ns; a yield to a vCPU on another pCPU
 * waits for the reschedule IPI, 300..900 ns).
 */
class KvmHostMechanismsTest {
    /**
     * Two vCPUs of one VM on one pCPU, plain flush IPIs. vCPU 1 touches a page and computes; vCPU 0
     * computes 6 ms and then unmaps the page while vCPU 1 is preempted. (vCPU 0 first runs one
     * slice, at most 4.5 ms.)
     */
    private static Scripted preemptedTarget(String ple, String pvSchedYield) {
        return preemptedTarget(ple, pvSchedYield, "true", false);
    }

    /**
     * With {@code secondTarget}: three vCPUs on two pCPUs (vCPUs 0 and 2 share pCPU 0, vCPU 1 has
     * pCPU 1), vCPU 2 touching the page too; vCPU 0 unmaps it after 9 ms, while vCPU 2 is
     * preempted having run less than vCPU 0: one call with two targets, the mask path.
     */
    private static Scripted preemptedTarget(String ple, String pvSchedYield, String concurrentFlush, boolean secondTarget) {
        return preemptedTarget(ple, pvSchedYield, concurrentFlush, secondTarget, secondTarget ? 9_000_000 : 6_000_000);
    }

    private static Scripted preemptedTarget(String ple, String pvSchedYield, String concurrentFlush, boolean secondTarget,
                                            long senderSpinNs) {
        GuestConfig cfg = GuestConfig.builder().cpus(secondTarget ? 3 : 2).seed(3).backend("kvm").pcpus(secondTarget ? 2 : 1)
                .knob("kvm.pvTlbFlush", "false").knob("kvm.ple", ple).knob("kvm.pvSchedYield", pvSchedYield)
                .knob("native.concurrentFlush", concurrentFlush).build();
        Scripted s = new Scripted(cfg);
        long b = s.map(1, 1);
        s.spawn(0, new Spin(senderSpinNs, 10_000), s.munmap(b, 1));
        s.spawn(1, Scripted.populate(b, 1), new Spin(20_000_000));
        if (secondTarget) {
            s.spawn(2, Scripted.touch(b, 1, 1), new Spin(20_000_000));
        }
        s.run();
        return s;
    }

    /** The time from vCPU 0's IPI send to the shootdown on vCPU 1. */
    private static long sendToShootdown(Scripted s) {
        return sendToShootdown(s, 1);
    }

    private static long sendToShootdown(Scripted s, int target) {
        List<TraceEvent> send = s.flushes(0, TlbFlushReason.TLB_REMOTE_SEND_IPI);
        List<TraceEvent> done = s.flushes(target, TlbFlushReason.TLB_REMOTE_SHOOTDOWN);
        assertEquals(1, send.size());
        assertEquals(1, done.size());
        return done.get(0).time() - send.get(0).time();
    }

    private static long delivery(Scripted s) {
        return s.guest.ledger().ns(dev.pvtlb.stats.CostPart.IPI_DELIVERY);
    }

    @Test
    void aSenderSpinningOnAPreemptedTargetExitsAfterThePleWindowAndTheTargetRunsNext() {
        Scripted ple = preemptedTarget("true", "false");
        long withPle = sendToShootdown(ple);
        assertEquals(1, ple.count(Counter.PLE_EXITS), "one exit: the target acks before a second window");
        assertEquals(1, ple.count(Counter.DIRECTED_YIELDS));
        // IPI hypercall (600) + PLE window (1365) + the host's switch to the target and its VM entry
        // (2500 + 600; the same pCPU, no reschedule IPI) + its IRQ entry and flush. Seed 3 gives 5395 ns.
        assertTrue(withPle >= 600 + 1365 + 2500 + 600 && withPle < 6_000, "send to shootdown with PLE: " + withPle + " ns");
        Scripted none = preemptedTarget("false", "false");
        long withoutPle = sendToShootdown(none);
        // How long the IPI waited at the preempted target for its vCPU to run (ipi_delivery): the
        // PLE window, the yield and the target's switch and VM entry with PLE; the sender's slice without.
        assertEquals(4_003, delivery(ple));
        assertEquals(2_298_410, delivery(none));
        assertEquals(0, none.count(Counter.PLE_EXITS));
        assertEquals(0, none.count(Counter.DIRECTED_YIELDS));
        // Seed 3 gives 2299792 ns.
        assertTrue(withoutPle > 1_500_000, "without PLE the sender spins out its slice (>= 1.5 ms): " + withoutPle + " ns");
    }

    @Test
    void withPvSchedYieldTheSenderYieldsToThePreemptedTargetAtOnce() {
        for (String concurrentFlush : List.of("true", "false")) {
            Scripted y = preemptedTarget("false", "true", concurrentFlush, true);
            long t = sendToShootdown(y, 2);
            assertEquals(1, y.count(Counter.DIRECTED_YIELDS), "one KVM_HC_SCHED_YIELD, answered with yield_to()");
            assertEquals(0, y.count(Counter.PLE_EXITS));
            // No PLE window: after the IPIs' hypercall (600) and the yield's own (600), the host hands
            // the sender's pCPU to the target, whose switch and VM entry (2500 + 600) and IRQ entry
            // and flush follow (seed 3; 5.10's flush path, concurrentFlush=false, gives 43 ns more).
            assertEquals(concurrentFlush.equals("true") ? 4617 : 4660, t, "send to shootdown with PV sched yield");
            assertEquals(2, y.count(Counter.HYPERCALLS), "KVM_HC_SEND_IPI and KVM_HC_SCHED_YIELD");
        }
    }

    /**
     * Four vCPUs on two pCPUs: vCPU 0 sends, vCPUs 1 and 3 share pCPU 1 and both touched the page,
     * vCPU 2 (pCPU 0) only sleeps. At the unmap one of vCPUs 1 and 3 runs and the other waits for
     * pCPU 1; the guest yields to the waiting one. Returns each target's send-to-shootdown time.
     */
    private static long[] yieldBesideARunningTarget(long senderSpinNs) {
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(3).backend("kvm").pcpus(2)
                .knob("kvm.pvTlbFlush", "false").knob("kvm.pvSchedYield", "true").build();
        Scripted s = new Scripted(cfg);
        long b = s.map(1, 1);
        s.spawn(0, new Spin(senderSpinNs, 10_000), s.munmap(b, 1));
        s.spawn(1, Scripted.populate(b, 1), new Spin(20_000_000));
        s.spawn(3, Scripted.touch(b, 1, 1), new Spin(20_000_000));
        s.run();
        assertEquals(1, s.count(Counter.DIRECTED_YIELDS), "one KVM_HC_SCHED_YIELD, answered with yield_to()");
        return new long[] {sendToShootdown(s, 1), sendToShootdown(s, 3)};
    }

    /**
     * kvm_sched_yield() runs in the yield's own hypercall, after the IPIs' hypercall has returned:
     * the running target (vCPU 1 here) takes its call-function IPI before the yield's reschedule IPI
     * switches it out for the waiting one. Done at the send, the yield's reschedule IPI went out a
     * hypercall before the call-function IPIs, and the running target was switched out first and
     * flushed only at its next slice, milliseconds on.
     */
    @Test
    void theYieldsRescheduleComesAfterTheCallFunctionIpisSoARunningTargetFlushesFirst() {
        long[] t = yieldBesideARunningTarget(9_000_000);
        // vCPU 1, running: the IPIs' hypercall (600), the IPI's flight, IRQ entry and flush.
        assertEquals(1_502, t[0], "the running target's shootdown");
        // vCPU 3, waiting: the yield's hypercall (600), the reschedule IPI, the host's switch and VM
        // entry (2500 + 600), IRQ entry and flush.
        assertEquals(5_517, t[1], "the waiting target's shootdown");
    }

    /**
     * The same yield at 6 ms, when vCPU 2 has run more than vCPU 0 on their pCPU: yield_to()
     * makes it the next buddy and reports success, but the buddy is picked only while it has not
     * run ahead of its queue (EEVDF: entity_eligible(); CFS: wakeup_preempt_entity() &lt; 1 in
     * pick_next_entity()), so vCPU 0 runs on and vCPU 2 waits for its turn.
     */
    @Test
    void aYieldToAVcpuThatRanAheadDoesNotRunItBeforeItsTurn() {
        Scripted y = preemptedTarget("false", "true", "true", true, 6_000_000);
        assertEquals(1, y.count(Counter.DIRECTED_YIELDS), "yield_to() succeeded");
        assertEquals(6_399_802, sendToShootdown(y, 2), "the target ran at its pCPU's next slice end");
    }

    @Test
    void aCallWithOneTargetTakesTheSinglePathAndDoesNotYield() {
        // The preemptedTarget() run: vCPU 0's flush has vCPU 1 alone as its target.
        // arch_send_call_function_single_ipi() is not smp_ops.send_call_func_ipi, which KVM hooks.
        Scripted y = preemptedTarget("false", "true");
        long t = sendToShootdown(y);
        assertEquals(0, y.count(Counter.DIRECTED_YIELDS));
        assertEquals(1, y.count(Counter.HYPERCALLS), "KVM_HC_SEND_IPI only");
        Scripted none = preemptedTarget("false", "false");
        assertEquals(sendToShootdown(none), t, "the same run as without the PV sched yield");
        assertEquals(2_299_802, t, "the sender spins out its slice");
    }

    /**
     * Two VMs of 2 vCPUs on 2 pCPUs. vCPU 1 computes 0.5 ms and sleeps (HLT: the other VM's vCPU gets
     * its pCPU); vCPU 0 computes 1 ms and unmaps a page vCPU 1 touched; with lazy=ipi the lazy
     * vCPU 1 gets the IPI: woken, runnable, not preempted, behind a vCPU that ran less.
     */
    private static Scripted wokenTarget(String boost) {
        // The boost's own test host (5.2 with the boost applied, CFS): a woken vCPU within the wake-up granularity of its queue may be
        // picked as a buddy. Under EEVDF it keeps the lag it had when it halted (ahead of the other VM's
        // vCPU here), so it is not eligible and the yield would not run it.
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(5).backend("kvm").pcpus(2).vms(2).knob("host.scheduler", "cfs")
                .knob("kvm.pvTlbFlush", "false").knob("kvm.pvSchedYield", "false").knob("kvm.boost", boost).knob("lazy", "ipi")
                .build();
        Scripted s = new Scripted(cfg);
        long b = s.map(1, 4);
        s.spawn(0, Scripted.populate(b, 4), new Spin(1_000_000, 10_000), s.munmap(b, 4));
        s.spawn(1, Scripted.touch(b, 4, 4), new Spin(500_000, 10_000), Scripted.sleep(10_000_000));
        s.run();
        return s;
    }

    /** From the IPI's send to vCPU 1's flush_tlb_func(), which, lazy, switches to init_mm (TLB_FLUSH_ON_TASK_SWITCH). */
    private static long sendToLazySwitch(Scripted s) {
        List<TraceEvent> send = s.flushes(0, TlbFlushReason.TLB_REMOTE_SEND_IPI);
        assertEquals(1, send.size());
        long sent = send.get(0).time();
        return s.flushes(1, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH).stream().mapToLong(TraceEvent::time)
                .filter(t -> t > sent).min().orElseThrow() - sent;
    }

    @Test
    void theBoostYieldsToAVcpuWokenByTheIpiThatWaitsForItsPcpu() {
        Scripted boost = wokenTarget("true");
        long withBoost = sendToLazySwitch(boost);
        assertTrue(boost.count(Counter.DIRECTED_YIELDS) >= 1);
        // Seed 5 gives 6080 ns (IPI hypercall, PLE window, the reschedule IPI to the target's pCPU,
        // the host's switch and VM entry, interrupt).
        assertTrue(withBoost >= 600 + 1365 + 300 + 2500 + 600 && withBoost < 7_000,
                "vcpu->ready set by kvm_vcpu_wake_up(): yielded to after one PLE window: " + withBoost + " ns");
        Scripted before = wokenTarget("false");
        long without = sendToLazySwitch(before);
        assertEquals(0, before.count(Counter.DIRECTED_YIELDS), "a woken vCPU is not preempted: no candidate");
        // Seed 5 gives 8700308 ns: the other VM's vCPU ran its CFS slice out.
        assertTrue(without > 1_000_000, "without the boost it waits for its pCPU's slice end: " + without + " ns");
    }

    /** vCPU 1 sleeps 50 us ten times on a pCPU of its own; the host polls for it. */
    private static Scripted sleeper(String haltPoll) {
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(7).backend("kvm").pcpus(2).knob("kvm.haltPoll", haltPoll).build();
        Scripted s = new Scripted(cfg);
        Object[] ops = new Object[20];
        for (int i = 0; i < 20; i += 2) {
            ops[i] = new Spin(10_000, 10_000);
            ops[i + 1] = Scripted.sleep(50_000);
        }
        s.spawn(1, java.util.Arrays.copyOf(ops, ops.length, dev.pvtlb.internal.kernel.Op[].class));
        s.run();
        return s;
    }

    /**
     * The window starts at 0 and doubles from 10 us after each 50 us halt it did not cover (0, 10,
     * 20, 40 us: four halts scheduled out, each paying a switch and VM entry); from the fifth on, 80 us covers
     * the halt and the vCPU resumes where it polled.
     */
    @Test
    void aHaltedVcpuWokenWithinItsHaltPollWindowPaysNoVmEntry() {
        Scripted poll = sleeper("true");
        assertEquals(6, poll.count(Counter.HALT_POLL_WAKEUPS));
        assertEquals(4 * 3100, poll.guest.cpuTime().get(1, TimeCategory.STOLEN), "scheduled out while the window grew");
        Scripted noPoll = sleeper("false");
        assertEquals(0, noPoll.count(Counter.HALT_POLL_WAKEUPS));
        assertEquals(10 * 3100, noPoll.guest.cpuTime().get(1, TimeCategory.STOLEN), "a switch and VM entry (3100 ns) per wake-up");
    }

    /** Two CPU-bound vCPUs on one pCPU: the least-virtual-runtime pick shares it about evenly. */
    @Test
    void twoBusyVcpusOnOnePcpuShareItByVirtualRuntime() {
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(9).backend("kvm").pcpus(1).build();
        Scripted s = new Scripted(cfg);
        s.spawn(0, new Spin(30_000_000));
        s.spawn(1, new Spin(30_000_000));
        s.run();
        long stolen0 = s.guest.cpuTime().get(0, TimeCategory.STOLEN);
        long stolen1 = s.guest.cpuTime().get(1, TimeCategory.STOLEN);
        // Each ran 30 ms and waited while the other ran: at most one slice (4.5 ms) apart.
        assertTrue(Math.abs(stolen0 - stolen1) <= 4_500_000 + 2 * 600, stolen0 + " vs " + stolen1);
        assertTrue(stolen0 + stolen1 >= 30_000_000, "one pCPU for 60 ms of work: " + (stolen0 + stolen1));
        assertTrue(s.count(Counter.VCPU_PREEMPTIONS) >= 60_000_000 / 4_500_000 - 1, "a switch per slice at least");
    }

    /**
     * vCPU {@code c} computes {@code start[c]} ns, then takes one spinlock (a SpinLockedSection,
     * IRQs off) and holds it {@code hold[c]} ns; {@code held[c]} is when it had it. Not run yet.
     */
    private static Scripted lockers(GuestConfig cfg, long[] start, long[] hold, long[] held) {
        Scripted s = new Scripted(cfg);
        dev.pvtlb.internal.kernel.QueuedSpinLock<dev.pvtlb.internal.kernel.KernelCpu> lock =
                new dev.pvtlb.internal.kernel.QueuedSpinLock<>("test_lock");
        for (int c = 0; c < start.length; c++) {
            long h = hold[c];
            s.spawn(c, new Spin(start[c]), new dev.pvtlb.internal.workload.Syscall(t -> new dev.pvtlb.internal.kernel.SpinLockedSection(
                    "test_lock", lock, h, () -> held[t.cpu().id()] = t.cpu().kernel().engine().now()), null));
        }
        return s;
    }

    /**
     * vCPU 0 holds a spinlock for 3 ms; vCPU 1 (a pCPU of its own) asks for it 1 us in. Returns
     * {when vCPU 1 had it after vCPU 0's unlock, vCPU 1's halted time, hypercalls, PLE exits}.
     */
    private static long[] lockWaiter(String pvSpinlock) {
        return lockWaiter(pvSpinlock, dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT));
    }

    private static long[] lockWaiter(String pvSpinlock, dev.pvtlb.profile.Profile profile) {
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(11).backend("kvm").pcpus(2).knob("kvm.pvSpinlock", pvSpinlock)
                .profile(profile).build();
        long[] held = new long[2];
        Scripted s = lockers(cfg, new long[] {1, 1_001}, new long[] {3_000_000, 10_000}, held);
        s.run();
        return new long[] {held[1] - (held[0] + 3_000_000), s.guest.cpuTime().get(1, TimeCategory.IDLE),
            s.count(Counter.HYPERCALLS), s.count(Counter.PLE_EXITS), s.count(Counter.PV_WAIT_HALTS)};
    }

    @Test
    void aSpinlockWaiterHaltsAfterTheSpinThresholdAndTheUnlockerKicksIt() {
        long[] pv = lockWaiter("true");
        // SPIN_THRESHOLD (2^15) turns of 50 ns: vCPU 1 halts 1638.4 us into its wait, past halt
        // polling (200 us) is scheduled out, and the unlock kicks it (one KVM_HC_KICK_CPU): it has
        // the lock the unlock's write and the kick's hypercall (20 + 600 ns), the host's switch and a
        // VM entry (2500 + 600 ns) and a line transfer (20 ns) after the unlock.
        assertEquals(3740, pv[0]);
        assertEquals(1, pv[2], "the kick");
        assertEquals(1, pv[4], "one pv_wait() halt");
        assertTrue(pv[1] >= 3_000_000 - 1_638_400 - 1_001 - 205 && pv[1] <= 3_000_000 - 1_638_400 + 600, "halted " + pv[1] + " ns");
        // Spinning until then, it took pause-loop exits at windows of 1365 ns doubling: 10 in 1.4 ms.
        assertEquals(10, pv[3]);
        long[] spin = lockWaiter("false");
        assertEquals(40, spin[0], "a spinning waiter has it at once: behind the unlock's write, 20 + 20 ns");
        assertEquals(0, spin[2], "no kick");
        assertEquals(0, spin[4], "no pv_wait()");
        assertTrue(spin[1] < 1_000, "never halted: " + spin[1] + " ns idle");
        assertEquals(11, spin[3], "pause-loop exits for the whole 3 ms");
    }

    /** The spin threshold is SPIN_THRESHOLD turns of the profile's cpu.pause.ns: at 10 ns a turn it halts 327.68 us in. */
    @Test
    void theSpinThresholdIsCountedInTheProfilesPauses() {
        long[] pv = lockWaiter("true", dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT)
                .with(java.util.Map.of("cpu.pause.ns", 10.0), "test"));
        assertEquals(3740, pv[0]);
        assertEquals(1, pv[2], "the kick");
        assertTrue(pv[1] >= 3_000_000 - 327_680 - 1_001 - 205 && pv[1] <= 3_000_000 - 327_680 + 600, "halted " + pv[1] + " ns");
    }

    /**
     * vCPU 0 holds a spinlock for 3 ms; vCPU 1 asks for it 1 us in and halts after the spin
     * threshold; vCPU 2 asks at 2 ms, while the queue's head is halted. Each vCPU has a pCPU.
     * Returns {when vCPU 2 had it after vCPU 0's unlock, when vCPU 1 had it after vCPU 2's,
     * vCPU 2's halted time, hypercalls}.
     */
    private static long[] lateLocker() {
        GuestConfig cfg = GuestConfig.builder().cpus(3).seed(11).backend("kvm").pcpus(3).build();
        long[] held = new long[3];
        Scripted s = lockers(cfg, new long[] {1, 1_001, 2_000_000}, new long[] {3_000_000, 10_000, 10_000}, held);
        s.run();
        return new long[] {held[2] - (held[0] + 3_000_000), held[1] - (held[2] + 10_000),
            s.guest.cpuTime().get(2, TimeCategory.IDLE), s.count(Counter.HYPERCALLS)};
    }

    @Test
    void aLockerThatComesWhileTheQueuesHeadIsHaltedSpinsUnqueuedAndHasTheLockBeforeTheKickedHead() {
        long[] r = lateLocker();
        // vCPU 2 spins on the lock word unqueued and takes it behind the unlock's write (20 + 20 ns),
        // while the kicked head (vCPU 1) still pays its VM entry (600 ns).
        assertEquals(40, r[0]);
        // The head then spins with pending set and has the lock handed over at vCPU 2's unlock.
        assertEquals(20, r[1]);
        assertEquals(205, r[2], "vCPU 2 never halts (its 205 ns are the idle before its task starts)");
        assertEquals(1, r[3], "one kick, of the halted head");
    }

    /**
     * vCPU 1 (a pCPU of its own) holds a spinlock for 3 ms; vCPU 0 asks for it 1 us in and halts
     * after the spin threshold (1.64 ms); vCPU 2, which shares vCPU 0's pCPU, then runs, sleeps
     * 0.1 ms and computes. On a CFS host vCPU 2 has the smaller virtual runtime, so the kicked
     * vCPU 0 does not preempt it on wake-up. Returns {when vCPU 0 had the lock after vCPU 1's
     * unlock, directed yields, hypercalls, pv_wait() halts}.
     */
    private static long[] kickedHeadBehindABusyVcpu(String kickYield) {
        GuestConfig cfg = GuestConfig.builder().cpus(3).seed(11).backend("kvm").pcpus(2).knob("kvm.kickYield", kickYield)
                .knob("host.scheduler", "cfs").knob("host.balance", "none").knob("kvm.ple", "false").build();
        long[] held = new long[2];
        Scripted s = lockers(cfg, new long[] {1_001, 1}, new long[] {10_000, 3_000_000}, held);
        s.spawn(2, Scripted.sleep(100_000), new Spin(30_000_000));
        s.run();
        return new long[] {held[0] - (held[1] + 3_000_000), s.count(Counter.DIRECTED_YIELDS), s.count(Counter.HYPERCALLS),
            s.count(Counter.PV_WAIT_HALTS)};
    }

    @Test
    void withKickYieldTheUnlockerYieldsToTheKickedHeadWaitingForItsPcpu() {
        long[] plain = kickedHeadBehindABusyVcpu("false");
        // Before 266e85a5ec91 the kicked head is runnable but waits until CFS picks it, while the lock
        // it was handed sits unused. vCPU 2's slice was drawn as the pCPU's only runnable vCPU (12 ms,
        // x1.09 here); check_preempt_tick() recomputes sched_slice() at every tick, so once vCPU 0 is
        // runnable the slice is the share of two, 6 ms x1.09 from the same start: 5.35 ms after the
        // unlock (11.95 ms with the slice of one).
        assertEquals(5_348_191, plain[0]);
        assertEquals(0, plain[1], "no directed yield");
        assertEquals(1, plain[2], "the kick");
        assertEquals(1, plain[3], "one pv_wait() halt");
        long[] yield = kickedHeadBehindABusyVcpu("true");
        // With it the kick's kvm_sched_yield(), once the unlock's write and the kick's hypercall are
        // done (20 + 600 ns), hands vCPU 0 its pCPU when the reschedule IPI is there (300 ns, seed
        // 11): then the host's switch and the VM entry (2500 + 600 ns) and the lock word's line (20 ns).
        assertEquals(4040, yield[0]);
        assertEquals(1, yield[1], "the kick's directed yield");
        assertEquals(1, yield[2], "still one hypercall: the yield is the kick's own");
        assertEquals(1, yield[3]);
    }

    /**
     * vCPU 1 holds a spinlock for 12 ms; vCPU 0 asks for it 1 us in and shares its pCPU with vCPU 2,
     * which computes throughout, so the host deschedules vCPU 0 for slices of its spin. Returns
     * {vCPU 0's halted time, its stolen time, kicks, when vCPU 0 had the lock after vCPU 1's unlock}.
     */
    private static long[] preemptedLockWaiter() {
        GuestConfig cfg = GuestConfig.builder().cpus(3).seed(11).backend("kvm").pcpus(2).build();
        long[] held = new long[2];
        Scripted s = lockers(cfg, new long[] {1_001, 1}, new long[] {10_000, 12_000_000}, held);
        s.spawn(2, new Spin(30_000_000));
        s.run();
        return new long[] {s.guest.cpuTime().get(0, TimeCategory.IDLE), s.guest.cpuTime().get(0, TimeCategory.STOLEN),
            s.count(Counter.HYPERCALLS), held[0] - (held[1] + 12_000_000)};
    }

    @Test
    void aWaiterDescheduledDuringItsSpinCountsOnlyTheTurnsItRan() {
        long[] r = preemptedLockWaiter();
        // vCPU 0's first pause-loop exit (2.4 us in) yields its pCPU to vCPU 2, which keeps it 3.5 ms;
        // at the unlock the kick wakes vCPU 0 from vCPU 1's pCPU, so vCPU 2 makes way only when the
        // reschedule IPI reaches their pCPU, 700 ns on (seed 11).
        assertEquals(3_512_800 + 700, r[1]);
        // Back on its pCPU, vCPU 0 spins the rest of its 2^15 turns (1638.4 us less the 1.4 us it
        // spun before) and halts at about 5.14 ms: halted 6.86 ms until the unlock kicks it. Counted
        // in virtual time, the threshold had passed while it was descheduled and it halted as soon
        // as it ran again: 8496695 ns. The kick comes after the unlock's write and its hypercall (620 ns).
        assertEquals(6_858_380, r[0]);
        assertEquals(1, r[2], "one kick");
        // The kick, after the unlock's write and its hypercall (20 + 600 ns), runs try_to_wake_up() on
        // vCPU 1's pCPU: vCPU 0's pCPU switches when the reschedule IPI arrives (700 ns), then the
        // host's switch and the VM entry (2500 + 600 ns) and the lock word's line (20 ns).
        assertEquals(20 + 600 + 700 + 2_500 + 600 + 20, r[3]);
    }

    /**
     * vCPU 2 holds a spinlock for 1.5 ms; vCPU 0 asks for it 1 us in and becomes the queue's head,
     * sharing its pCPU with vCPU 3, which computes throughout; vCPU 1 (a pCPU of its own) queues
     * behind vCPU 0 at 2 us. Returns {vCPU 1's halted time, its lock-spin time, pv_wait() halts}.
     */
    private static long[] waiterBehindAPreemptedHead(String waitEarly) {
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(11).backend("kvm").pcpus(3)
                .knob("pvqspinlock.waitEarly", waitEarly).build();
        Scripted s = lockers(cfg, new long[] {1_001, 2_001, 1}, new long[] {10_000, 10_000, 1_500_000}, new long[3]);
        s.spawn(3, new Spin(30_000_000));
        s.run();
        return new long[] {s.guest.cpuTime().get(1, TimeCategory.IDLE), s.guest.cpuTime().get(1, TimeCategory.LOCK_SPIN),
            s.count(Counter.PV_WAIT_HALTS)};
    }

    @Test
    void withWaitEarlyPreemptedAWaiterHaltsBehindAPreemptedPredecessor() {
        // The head (vCPU 0) yields its pCPU to vCPU 3 at its first pause-loop exit and stays off it
        // for milliseconds, past the unlock, which hands it the lock.
        long[] stock = waiterBehindAPreemptedHead("halted");
        // Stock pv_wait_early() (and since 5.4): vCPU 1 spins until vCPU 0 has had the lock and let
        // it go, short of its 2^15 turns, and never halts (205 ns idle: before its task starts).
        assertEquals(205, stock[0]);
        assertEquals(1_502_115, stock[1]);
        assertEquals(0, stock[2]);
        long[] v411 = waiterBehindAPreemptedHead("preempted");
        // 4.11 .. 5.3: at its first look at its predecessor (here at its own first pause-loop exit,
        // 1365 ns into the spin) vCPU 1 finds vCPU 0 descheduled and halts in pv_wait(); it is kicked
        // only when it is the head and the lock free, 2.31 ms on, after vCPU 0's section and the
        // unlock's kick hypercall.
        assertEquals(2_312_980, v411[0]);
        assertEquals(1_365, v411[1]);
        assertEquals(1, v411[2]);
    }

    @Test
    void aLockWaitersSpinIsLockSpinTimeAndItsPauseLoopExitsAreStolen() {
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(11).backend("kvm").pcpus(2).knob("kvm.pvSpinlock", "false").build();
        Scripted s = lockers(cfg, new long[] {1, 1_001}, new long[] {3_000_000, 10_000}, new long[2]);
        s.run();
        // vCPU 1 waits from 1 us to the unlock at 3 ms: its 11 pause-loop exits' host work (600 ns
        // each) is stolen, the rest of the wait is the spin (queued_spin_lock_slowpath()), not kernel.
        assertEquals(11, s.count(Counter.PLE_EXITS));
        assertEquals(6_600, s.guest.cpuTime().get(1, TimeCategory.STOLEN));
        assertEquals(2_992_435, s.guest.cpuTime().get(1, TimeCategory.LOCK_SPIN));
        assertEquals(12_545, s.guest.cpuTime().get(1, TimeCategory.KERNEL), "the lock section's own steps and the task's syscall");
    }

    /**
     * vCPU 1 holds a spinlock for 12 ms; vCPU 0 asks for it 1 us in and shares its pCPU with vCPU 2,
     * which computes throughout; no pause-loop exits, so the host deschedules vCPU 0 at its slice's
     * end in the middle of its spin.
     */
    @Test
    void aSpinnerDescheduledByTheHostIsStolenForThatStretchNotSpinning() {
        GuestConfig cfg = GuestConfig.builder().cpus(3).seed(11).backend("kvm").pcpus(2).knob("kvm.pvSpinlock", "false")
                .knob("kvm.ple", "false").build();
        long[] held = new long[2];
        Scripted s = lockers(cfg, new long[] {1_001, 1}, new long[] {10_000, 12_000_000}, held);
        s.spawn(2, new Spin(30_000_000));
        s.run();
        long spun = s.guest.cpuTime().get(0, TimeCategory.LOCK_SPIN);
        long stolen = s.guest.cpuTime().get(0, TimeCategory.STOLEN);
        assertEquals(2, s.count(Counter.VCPU_PREEMPTIONS));
        // The pCPU shared about evenly: 5.2 ms spun while running, 6.8 ms runnable off the pCPU (the
        // guest's steal time). Booked as the wait's, the whole 12 ms would read as spinning.
        assertEquals(5_195_935, spun);
        assertEquals(6_803_100, stolen);
        assertEquals(12_002_652, held[0], "vCPU 0 had the lock 2.7 us after the unlock");
        assertTrue(held[0] - 1_001 - (spun + stolen) < 5_000, "the wait is spin plus steal: " + (spun + stolen));
    }

    /**
     * Three lockers without paravirtual spinlocks and without pause-loop exits: vCPU 1 holds the
     * lock 6 ms; vCPU 0 asks 1 us in and shares its pCPU with vCPU 3, which computes throughout, so
     * the host deschedules vCPU 0 at its slice's end, 4.5 ms into its spin; vCPU 2, alone on its
     * pCPU, asks 2 us in. Returns when vCPU 0, 1 and 2 had it.
     */
    private static long[] lockersBehindAPreemptedWaiter(String virtSpinLock) {
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(11).backend("kvm").pcpus(3).knob("kvm.pvSpinlock", "false")
                .knob("kvm.ple", "false").knob("virtSpinLock", virtSpinLock).build();
        long[] held = new long[3];
        Scripted s = lockers(cfg, new long[] {1_001, 1, 2_001}, new long[] {10_000, 6_000_000, 10_000}, held);
        s.spawn(3, new Spin(30_000_000));
        s.run();
        return held;
    }

    @Test
    void withoutParavirtualSpinlocksATestAndSetLockGoesPastAPreemptedWaiter() {
        long[] tas = lockersBehindAPreemptedWaiter("tas");
        long[] queued = lockersBehindAPreemptedWaiter("off");
        assertEquals(2_582, tas[1]);
        assertEquals(2_582, queued[1]);
        // virt_spin_lock(): vCPU 2 spins on the word and has it 40 ns after vCPU 1's unlock at
        // 6,002,582 (the unlock's write, then its own); the descheduled vCPU 0 takes it when it runs.
        assertEquals(6_002_622, tas[2]);
        assertTrue(tas[0] > tas[2] + 10_000, "vCPU 0 after vCPU 2's section: " + tas[0]);
        // The fair queue hands the lock to its head, vCPU 0, descheduled: it has it only when the
        // host runs it again (its switch, VM entry and the line: 10,700,020 + 2500 + 600), and vCPU 2
        // waits 4.7 ms longer, until vCPU 0's 10-us section ends.
        assertEquals(10_703_120, queued[0]);
        assertEquals(10_713_140, queued[2]);
    }
}

package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.internal.kernel.Mprotect;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.scenario.Script;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * KVM's shadow MMU under PVM: a guest flush whose PTE changes revoke a permission makes the host
 * flush every vCPU of the VM (kvm_flush_remote_tlbs()), once per page flushed by
 * PVM_HC_TLB_INVLPG. Two processes on two vCPUs of two pCPUs: a victim on vCPU 0 reads its own
 * pages, another process on vCPU 1 changes the protection of {@code pages} of its own pages. The
 * two share no mm, so natively the victim sees nothing of it (x86-skylake: hypercall 600 ns, VM
 * exit 600 ns, INVLPG 100 ns, full flush 33 ns, IPI send 50 ns; host IPI latency pinned to 300 ns).
 */
class ShadowMmuSyncTest {
    /** [0] kicks of vCPU 0 (its stolen time over one exit and full flush), [1] ns stolen from vCPU 0, [2] hypercalls, [3] host flushes. */
    private static long[] otherProcessMprotects(String backend, int pages, boolean writable) {
        return otherProcessMprotects(backend, pages, 33, writable);
    }

    /** As above with the flush ceiling at {@code ceiling} pages; {@code writable}: read-only first, then writable again. */
    private static long[] otherProcessMprotects(String backend, int pages, int ceiling, boolean writable) {
        Profile p = Profile.load(Profile.DEFAULT).with(Map.of("ipi.latency.max.ns", 300.0, "flush.ceiling.pages", (double) ceiling), "test");
        GuestConfig cfg = GuestConfig.builder().cpus(2).seed(7).backend(backend).pcpus(2).profile(p).build();
        Kernel g = KernelBoot.boot(cfg);
        Mm victim = g.newMm();
        Mm noise = g.newMm();
        long a = Scripted.region(0);
        victim.insertVma(a, a + 8 * Scripted.PAGE, true, false);
        noise.insertVma(a, a + 8 * Scripted.PAGE, true, false);
        g.spawn("victim", victim, 0, new Script(Scripted.populate(a, 8), Scripted.touch(a, 8, 200_000)));
        long end = a + pages * Scripted.PAGE;
        g.spawn("noise", noise, 1, writable
                ? new Script(Scripted.populate(a, 8), Scripted.sleep(20_000), new Syscall(t -> new Mprotect(noise, a, end, false), null),
                        Scripted.sleep(20_000), new Syscall(t -> new Mprotect(noise, a, end, true), null))
                : new Script(Scripted.populate(a, 8), Scripted.sleep(20_000), new Syscall(t -> new Mprotect(noise, a, end, false), null)));
        g.run(Long.MAX_VALUE);
        long stolen = g.cpuTime().get(0, TimeCategory.STOLEN);
        return new long[] {stolen / (600 + 33), stolen, g.vmstat().get(Counter.HYPERCALLS),
                g.vmstat().get(Counter.HYPERVISOR_FLUSHES)};
    }

    @Test
    void aPageMadeReadOnlyByAnotherProcessFlushesTheVictimsVcpu() {
        long[] r = otherProcessMprotects("pvm", 1, false);
        assertEquals(1, r[2], "one PVM_HC_TLB_INVLPG for the page");
        assertEquals(2, r[3], "kvm_flush_remote_tlbs(): the caller and the running victim");
        assertEquals(1, r[0], "the victim is kicked out of the guest once");
        assertEquals(600 + 33, r[1], "its exit and its full flush, stolen from the victim");
    }

    @Test
    void everyPageFlushedByInvlpgHypercallsIsAVmWideFlushOfItsOwn() {
        long[] r = otherProcessMprotects("pvm", 4, false);
        assertEquals(4, r[2]);
        assertEquals(8, r[3]);
        assertEquals(4, r[0]);
        assertEquals(4 * (600 + 33), r[1]);
    }

    @Test
    void aRangeAboveTheCeilingIsOneFlushHypercallAndOneSyncOfTheRoots() {
        long[] r = otherProcessMprotects("pvm", 4, 2, false);
        assertEquals(1, r[2], "one PVM_HC_TLB_FLUSH_CURRENT");
        assertEquals(1, r[0], "kvm_mmu_sync_roots(): one VM-wide flush");
        assertEquals(600 + 33, r[1]);
        assertEquals(2, r[3]);
    }

    @Test
    void makingPagesWritableAgainRevokesNothingAndReachesNoOtherVcpu() {
        long[] r = otherProcessMprotects("pvm", 4, 33, true);
        assertEquals(8, r[2], "x86 flushes after both mprotects: 4 + 4 PVM_HC_TLB_INVLPG");
        assertEquals(4, r[0], "only the read-only one's syncs flush the VM");
        assertEquals(8, r[3]);
        assertEquals(4 * (600 + 33), r[1]);
    }

    @Test
    void onKvmWithTwoDimensionalPagingTheOtherProcessNeverReachesTheVictim() {
        long[] r = otherProcessMprotects("kvm", 4, false);
        assertEquals(0, r[1], "no time stolen from the victim by the other process's flush");
    }
}

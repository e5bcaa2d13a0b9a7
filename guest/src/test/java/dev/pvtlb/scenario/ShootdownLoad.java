package dev.pvtlb.scenario;

import dev.pvtlb.internal.kernel.Kernel;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Op;
import java.util.ArrayList;
import java.util.List;

/**
 * A small load that exercises every flush path of one mm and makes a stale translation
 * visible when one survives: CPU 0 populates a shared 64-page region and then, round after
 * round, zaps a quarter of it with MADV_DONTNEED (the VMA stays, so the others fault fresh
 * pages in), write-protects a read-only region and unmaps single pages of a third (freeing
 * its page table at the end). Every other CPU keeps reading and writing the shared region and
 * reading the read-only one, and odd CPUs sleep now and then (idle, lazy TLB).
 */
public final class ShootdownLoad {
    private ShootdownLoad() {}

    public static Scripted run(GuestConfig cfg, int rounds) {
        return run(cfg, rounds, true);
    }

    /** {@code sleepers}: odd CPUs go idle between rounds (their TLB state goes lazy). */
    public static Scripted run(GuestConfig cfg, int rounds, boolean sleepers) {
        Scripted s = new Scripted(cfg);
        int n = s.guest.cpus().length;
        long shared = s.map(0, 64);
        long ro = s.map(1, 16);
        long singles = s.map(2, rounds);
        List<Op> zero = new ArrayList<>(List.of(Scripted.populate(shared, 64), Scripted.populate(ro, 16),
                Scripted.populate(singles, rounds), Scripted.sleep(20_000)));
        for (int k = 0; k < rounds; k++) {
            zero.add(s.madvise(shared + (k % 4) * 16 * Scripted.PAGE, 16));
            zero.add(Scripted.sleep(3_000));
            zero.add(s.munmap(singles + k * Scripted.PAGE, 1));
            if (k == rounds / 2) {
                zero.add(s.mprotectRo(ro, 16));
            }
            zero.add(Scripted.touch(shared, 64, 200));
        }
        s.spawn(0, zero.toArray(Op[]::new));
        for (int c = 1; c < n; c++) {
            List<Op> ops = new ArrayList<>();
            ops.add(Scripted.sleep(15_000));
            // Three times CPU 0's rounds, so the others are still running when it is done.
            for (int k = 0; k < 3 * rounds; k++) {
                ops.add(new dev.pvtlb.internal.workload.Touch(shared, 64, 1_500, 0.3, false, null));
                ops.add(Scripted.touch(ro, 16, 100));
                if (sleepers && c % 2 == 1 && k % 3 == 0) {
                    ops.add(Scripted.sleep(4_000));
                }
            }
            s.spawn(c, ops.toArray(Op[]::new));
        }
        s.run();
        return s;
    }
}

package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Sequence;
import java.util.List;

/**
 * Catalogue 7, CVE-2025-37964 (fixed by fea4e317f9e7, "x86/mm: Eliminate window where TLB flushes
 * may be inadvertently skipped", Linux 6.15): CPU 1 switches back to an mm whose translations it
 * still caches under its PCID. switch_mm_irqs_off() sets loaded_mm = LOADED_MM_SWITCHING, sets its
 * mm_cpumask bit, reads tlb_gen, writes CR3 without a flush (its ASID is up to date), and only then
 * writes loaded_mm = next. CPU 0's MADV_DONTNEED bumps tlb_gen after that read; with
 * {@code shouldFlushTlb=loaded-mm} should_flush_tlb() sees loaded_mm != mm and sends no IPI, and
 * CPU 1 returns to user space on the zapped translation. {@code shouldFlushTlb=switching} (the fix)
 * flushes a switching CPU; {@code lazy} (the check before 6.8) does not read loaded_mm at all.
 */
public final class SwitchMmSkippedFlush extends Catalogue {
    @Override
    public String name() {
        return "switch-mm-skipped-flush";
    }

    @Override
    public String description() {
        return "catalogue: a flush during switch_mm's LOADED_MM_SWITCHING window skips the switching CPU (CVE-2025-37964)";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    void configureRace(GuestConfig.Builder b) {
        // x86 is TSO: CPU 1's loaded_mm store may still sit in its store buffer when CPU 0's
        // should_flush_tlb() reads it. At sc, with shared lines priced, CPU 0's path from the
        // tlb_gen increment to that read (tlb_gen, flush_tlb_info, mm_cpumask: about 45 ns) is
        // longer than CPU 1's tlb_gen-read-to-loaded_mm window (the 33 ns CR3 write), so only the
        // store buffer opens the window. --set memoryModel=sc shows that.
        b.knob("memoryModel", "tso");
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        Mm other = g.newMm();
        long r = map(mm, 1, 4);
        long o = map(other, 1, 1);
        // CPU 1: task "user" caches mm's translations, sleeps while "other" runs on another mm,
        // then comes back: the switch whose window the zap may hit.
        g.spawnPinned("user", mm, 1, new Sequence(cachesThenLeaves(r)));
        g.spawnPinned("other", other, 1, new Sequence(List.of(sleep(4_000), populate(o, 1))));
        // CPU 0: one MADV_DONTNEED of the range, its phase chosen around CPU 1's switch back.
        g.spawnPinned("zapper", mm, 0, new Sequence(List.of(populate(r, 4), sleep(2_000), delay(0, 12_700, 128),
                madvise(mm, r, 4), spin(6_000))));
        return mm;
    }
}

package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.kernel.GupFast;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.workload.Delay;
import dev.pvtlb.internal.workload.Metric;
import dev.pvtlb.internal.workload.Params;
import dev.pvtlb.internal.workload.Sequence;
import dev.pvtlb.internal.workload.Sleep;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.internal.workload.Touch;
import dev.pvtlb.internal.workload.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Shared pieces of the catalogue: small scenarios (2 to 4 vCPUs, a few operations) that each
 * reproduce one historical TLB-flush bug under one knob setting and are safe under the fix.
 * They report no metrics: their result is the hazard verdict.
 */
abstract class Catalogue implements Workload {
    static final long PAGE = 4096;
    /** Kernel memory of a catalogue scenario: small, so a schedule boots in microseconds. */
    static final long MEMORY = 4L << 20;

    /** Region {@code i}: 2 MiB apart, so each has its own page-table page. */
    static long region(int i) {
        return Mm.MMAP_BASE + (long) i * (2L << 20);
    }

    static long map(Mm mm, int i, int pages) {
        mm.insertVma(region(i), region(i) + pages * PAGE, true, false);
        return region(i);
    }

    static Op populate(long base, int pages) {
        return new Touch(base, pages, pages, 1.0, true, null);
    }

    static Op touch(long base, int pages, long accesses, double writes) {
        return new Touch(base, pages, accesses, writes, false, null);
    }

    static Op sleep(long ns) {
        return new Sleep(ns);
    }

    static Op spin(long ns) {
        return new Spin(ns);
    }

    static Op munmap(Mm mm, long start, int pages) {
        return new Syscall(t -> new ZapRange(mm, start, start + pages * PAGE, ZapRange.Kind.MUNMAP), null);
    }

    static Op madvise(Mm mm, long start, int pages) {
        return new Syscall(t -> new ZapRange(mm, start, start + pages * PAGE, ZapRange.Kind.MADV_DONTNEED), null);
    }

    /** A chosen delay in [min, max], {@code points} alternatives (ChoicePoint.DELAY). */
    static Op delay(long min, long max, int points) {
        return new Delay(min, max, points);
    }

    /** A gup_fast() call; issued again, it walks again with the same path object. */
    static Op gupFast(Mm mm, long va, int pages) {
        GupFast walk = new GupFast(mm, va, pages, pte -> { });
        return new Syscall(t -> walk, null);
    }

    @Override
    public Map<String, String> parameters() {
        return Map.of();
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.memoryBytes(MEMORY);
    }

    /**
     * CPU 1 reads 8 pages of an mm and goes idle, lazy on it, while CPU 0 unmaps them: the tables
     * freed are ones CPU 1's paging-structure cache still holds (lazy-speculative-walk and
     * table-free-no-invalidate).
     */
    static Supplier<Map<String, Metric>> readerGoesLazyWhileUnmapped(Kernel g) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 8);
        g.spawn("reader", mm, 1, new Sequence(List.of(sleep(300), touch(r, 8, 64, 0.0), sleep(12_000))));
        g.spawn("unmapper", mm, 0, new Sequence(List.of(populate(r, 8), sleep(2_000), munmap(mm, r, 8), spin(8_000))));
        return noMetrics();
    }

    static Supplier<Map<String, Metric>> noMetrics() {
        return Map::of;
    }
}

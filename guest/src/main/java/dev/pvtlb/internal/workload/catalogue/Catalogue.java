package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.smp.Topology;
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
 * Shared pieces of the catalogue: small scenarios (2 to 4 roles, a few operations) that each
 * reproduce one historical TLB-flush bug under one knob setting and are safe under the fix.
 * They report no metrics: their result is the hazard verdict.
 *
 * <p>Every entry takes {@code cpus}: the race keeps its roles on the CPUs {@code roleCpus} names
 * (0 .. roles-1 for most), and every other CPU runs a {@link Bystanders bystander} thread of the
 * race's mm, so the flushes of the race reach a machine of that size (a design gated by size
 * engages; each target costs what it costs). Virtualized entries give each vCPU a pCPU it shares
 * with another VM's vCPU at any size.
 */
abstract class Catalogue implements Workload {
    /** The parameter that sizes an entry. */
    static final String CPUS = "cpus";
    /** The largest size: the explorer runs an entry tens of thousands of times. */
    static final int MAX_CPUS = 64;
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

    /** The CPUs the race itself needs, one per role: the default and the least {@code cpus}. */
    abstract int roles();

    /** The machine of {@code cpus} CPUs: flat unless the race needs SMT siblings. */
    Topology topology(int cpus) {
        return Topology.flat(cpus);
    }

    /** Whether, on a virtualized backend, each vCPU shares its pCPU with a vCPU of a second VM. */
    boolean sharesPcpus() {
        return false;
    }

    /** Machine settings the race needs beyond its size (speculative walks, a memory model). */
    void configureRace(GuestConfig.Builder b) {
    }

    /** The CPUs the race's roles run on at size {@code cpus}: 0 .. roles-1 unless an entry needs others. */
    int[] roleCpus(int cpus) {
        return java.util.stream.IntStream.range(0, roles()).toArray();
    }

    /** Creates the race's processes and tasks on {@link #roleCpus}; returns the mm the race flushes. */
    abstract Mm race(Kernel g, int cpus);

    @Override
    public Map<String, String> parameters() {
        return Map.of(CPUS, Integer.toString(roles()));
    }

    /** The entry's size, checked. */
    int cpus(Params params) {
        int n = params.integer(CPUS, roles(), MAX_CPUS);
        if (topology(n).cpus() != n) {
            throw new ModelException(name() + ": parameter cpus must be a multiple of " + topology(roles()).threadsPerCore()
                    + " (cores of SMT siblings), got " + n);
        }
        return n;
    }

    @Override
    public final void configure(GuestConfig.Builder b, Params params) {
        int n = cpus(params);
        b.memoryBytes(MEMORY).topology(topology(n));
        // Each race scripts when its two sides overlap, and in the kernel mmap_lock orders none of
        // the pairs: both sides hold it for reading (two MADV_DONTNEEDs, a munmap after its
        // downgrade and a MADV_DONTNEED), or one side takes no mmap_lock (gup_fast, truncate under
        // i_mmap_rwsem, switch_mm, an access through a cached translation). So the entries leave
        // it out unless a kernel preset or an explicit knob takes it.
        b.workloadKnob("mmapLock", "off");
        if (sharesPcpus() && b.backend().virtualized()) {
            b.pcpus(n).vms(2);
        }
        configureRace(b);
    }

    @Override
    public final Supplier<Map<String, Metric>> setUp(Kernel g, Params params) {
        int n = cpus(params);
        if (g.cpus().length < n) {
            throw new ModelException(name() + ": cpus=" + n + " needs " + n + " vCPUs, the machine set has " + g.cpus().length
                    + " (leave vcpus/topology unset, or set them to at least cpus)");
        }
        Mm mm = race(g, n);
        Bystanders.spawn(g, mm, roleCpus(n), n);
        return Map::of;
    }

    /**
     * The user of the switch_mm races (switch-mm-skipped-flush, lazy-leave-barrier): it caches a
     * range's translations, leaves the CPU for 3 us, comes back (the switch the zap may race) and
     * then reads the range every microsecond for {@value #READS_AFTER_RETURN} rounds, so a stale
     * translation is still read after the zapper's flush returned, however long the flush's
     * fan-out at the entry's size makes it.
     */
    static List<Op> cachesThenLeaves(long r) {
        List<Op> ops = new java.util.ArrayList<>(List.of(sleep(2_000), touch(r, 4, 16, 0.0), sleep(3_000), touch(r, 4, 16, 0.0)));
        for (int k = 0; k < READS_AFTER_RETURN; k++) {
            ops.add(spin(1_000));
            ops.add(touch(r, 4, 16, 0.0));
        }
        return ops;
    }

    static final int READS_AFTER_RETURN = 6;

    /**
     * CPU 1 reads 8 pages of an mm and goes idle, lazy on it, while CPU 0 unmaps them: the tables
     * freed are ones CPU 1's paging-structure cache still holds (lazy-speculative-walk and
     * table-free-no-invalidate).
     */
    static Mm readerGoesLazyWhileUnmapped(Kernel g) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 8);
        g.spawnPinned("reader", mm, 1, new Sequence(List.of(sleep(300), touch(r, 8, 64, 0.0), sleep(12_000))));
        g.spawnPinned("unmapper", mm, 0, new Sequence(List.of(populate(r, 8), sleep(2_000), munmap(mm, r, 8), spin(8_000))));
        return mm;
    }
}

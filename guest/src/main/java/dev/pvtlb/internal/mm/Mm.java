package dev.pvtlb.internal.mm;

import dev.pvtlb.stats.CostPart;
import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.smp.CpuMask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code struct mm_struct} with its x86 {@code mm_context_t}: the page-table root, the VMAs,
 * {@code mm_cpumask} (CPUs that may hold its translations), {@code context.ctx_id} (a unique
 * id that outlives ASID reuse) and {@code context.tlb_gen} (bumped by every flush request).
 */
public final class Mm implements MmHandle {
    /** Where get_unmapped_area() starts looking (a simplified mmap_base). */
    public static final long MMAP_BASE = 0x7f00_0000_0000L;

    private final int id;
    private final long ctxId;
    private final int pgd;
    private final CpuMask cpumask;
    private final ContendedLine cpumaskLine = new ContendedLine(CostPart.LINES_MM_CPUMASK);
    private final ContendedLine tlbGenLine = new ContendedLine(CostPart.LINES_TLB_GEN);
    /** mm->mmap_lock and the cache line of its count, which every down and up writes atomically (made at first use). */
    private MmapLock mmapLock;
    private ContendedLine mmapLockLine;
    private final TreeMap<Long, Vma> vmas = new TreeMap<>();
    /**
     * The VMA found last, tried before the tree: a fault loop hits one VMA page after page (the
     * per-thread vmacache of Linux before 6.1 did the same). Dropped when a VMA is removed.
     */
    private Vma lastFound;
    /**
     * mm->context.next_trim_cpumask: init_new_context() sets it a period ahead (mms are made at boot
     * here); -1 until the first look, which sets it to the period.
     */
    private long nextTrimCpumaskNs = -1;
    private long tlbGen;
    /** mm_users: the tasks using this mm; each spawned task takes one reference. */
    private int users;
    private final boolean isInitMm;

    public Mm(int id, long ctxId, int pgd, int nrCpus, boolean isInitMm) {
        this.id = id;
        this.ctxId = ctxId;
        this.pgd = pgd;
        this.cpumask = new CpuMask(nrCpus);
        this.isInitMm = isInitMm;
    }

    /**
     * mm->tlb_flush_pending, by range: PTE changes made and not yet covered by a returned
     * flush (inc_tlb_flush_pending() .. dec_tlb_flush_pending()). The stale-translation
     * detector excuses a disagreeing TLB entry inside one of them.
     */
    private final java.util.ArrayList<long[]> flushPending = new java.util.ArrayList<>(4);
    /** Virtual time the last flush of this mm returned to its initiator. */
    private long lastFlushReturned = Long.MIN_VALUE;

    /**
     * The page-table locks held: split PTE locks, one per PTE table (USE_SPLIT_PTE_PTLOCKS, on
     * x86-64 and arm64 with NR_CPUS >= SPLIT_PTLOCK_CPUS = 4, include/linux/mm.h pte_lockptr()), each
     * known by the 2 MiB of address space its table maps (address >> 21), with the CPU holding it.
     * A zap of one table and a move_ptes() of another do not exclude each other.
     */
    private final java.util.HashMap<Long, Integer> ptlOwners = new java.util.HashMap<>(4);

    /** The lock of the PTE table that maps {@code va}. */
    private static long ptl(long va) {
        return va >>> 21;
    }

    /** spin_trylock() of the PTE table lock covering {@code va}: false while another CPU holds it. */
    public boolean ptlTryLock(int cpu, long va) {
        Integer owner = ptlOwners.get(ptl(va));
        if (owner != null && owner != cpu) {
            return false;
        }
        ptlOwners.put(ptl(va), cpu);
        return true;
    }

    /** Whether another CPU than {@code cpu} holds the lock of a PTE table mapping part of [start, end). */
    public boolean ptlHeldByOther(int cpu, long start, long end) {
        if (ptlOwners.isEmpty() || end <= start) {
            return false;
        }
        for (var e : ptlOwners.entrySet()) {
            if (e.getValue() != cpu && e.getKey() >= ptl(start) && e.getKey() <= ptl(end - 1)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code va} and {@code other} are mapped by PTE tables under one lock. */
    public static boolean samePtl(long va, long other) {
        return ptl(va) == ptl(other);
    }

    /** spin_unlock() of the PTE table lock covering {@code va}. */
    public void ptlUnlock(long va) {
        ptlOwners.remove(ptl(va));
    }

    /** inc_tlb_flush_pending() for the changes about to be made to [start, end). */
    public long[] beginFlushPending(long start, long end) {
        long[] r = {start, end};
        flushPending.add(r);
        return r;
    }

    /** dec_tlb_flush_pending(): the changes' flush has returned (or none was needed). */
    public void endFlushPending(long[] range) {
        flushPending.remove(range);
    }

    /** mm_tlb_flush_nested(): more than one zap of this mm between its changes and its flush. */
    public boolean flushNested() {
        return flushPending.size() > 1;
    }

    public boolean flushPendingCovers(long va) {
        for (int i = 0; i < flushPending.size(); i++) {
            long[] r = flushPending.get(i);
            if (va >= r[0] && va < r[1]) {
                return true;
            }
        }
        return false;
    }

    public long lastFlushReturned() {
        return lastFlushReturned;
    }

    public void flushReturned(long now) {
        lastFlushReturned = now;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public long ctxId() {
        return ctxId;
    }

    public int pgd() {
        return pgd;
    }

    @Override
    public CpuMask cpumask() {
        return cpumask;
    }

    public ContendedLine cpumaskLine() {
        return cpumaskLine;
    }

    public ContendedLine tlbGenLine() {
        return tlbGenLine;
    }

    public MmapLock mmapLock() {
        return mmapLock == null ? (mmapLock = new MmapLock()) : mmapLock;
    }

    public ContendedLine mmapLockLine() {
        return mmapLockLine == null ? (mmapLockLine = new ContendedLine(CostPart.LINES_MMAP_LOCK)) : mmapLockLine;
    }

    @Override
    public boolean isInitMm() {
        return isInitMm;
    }

    /** {@code atomic64_read(&mm->context.tlb_gen)}. */
    @Override
    public long tlbGen() {
        return tlbGen;
    }

    /** inc_mm_tlb_gen(): atomic64_inc_return, a full barrier. */
    public long incTlbGen() {
        return ++tlbGen;
    }

    /**
     * should_trim_cpumask() (6db2526c1d69, "x86/mm/tlb: Only trim the mm_cpumask once a second"):
     * true when the time is after next_trim_cpumask, which then moves {@code periodNs} (HZ jiffies,
     * kernel.cpumask_trim.period.ns) ahead.
     */
    public boolean shouldTrimCpumask(long nowNs, long periodNs) {
        if (nextTrimCpumaskNs < 0) {
            nextTrimCpumaskNs = periodNs;
        }
        if (nowNs > nextTrimCpumaskNs) {
            nextTrimCpumaskNs = nowNs + periodNs;
            return true;
        }
        return false;
    }

    public int users() {
        return users;
    }

    public void get() {
        users++;
    }

    /** Drops a user; true when it was the last. */
    public boolean put() {
        return --users == 0;
    }

    public Vma findVma(long va) {
        Vma c = lastFound;
        if (c != null && c.start <= va && va < c.end) {
            return c;
        }
        Map.Entry<Long, Vma> e = vmas.floorEntry(va);
        if (e == null || e.getValue().end <= va) {
            return null;
        }
        lastFound = e.getValue();
        return lastFound;
    }

    public List<Vma> vmas() {
        return List.copyOf(vmas.values());
    }

    /** True when a VMA overlaps [start, end). */
    public boolean overlaps(long start, long end) {
        Map.Entry<Long, Vma> e = vmas.lowerEntry(end);
        return e != null && e.getValue().end > start;
    }

    /** get_unmapped_area(): the first gap of {@code len} bytes at or above MMAP_BASE. */
    public long getUnmappedArea(long len) {
        long addr = MMAP_BASE;
        for (Vma v : vmas.tailMap(MMAP_BASE, true).values()) {
            if (v.start - addr >= len) {
                break;
            }
            addr = Math.max(addr, v.end);
        }
        if (addr + len > PageTables.USER_VA_END) {
            throw new ModelException("mm " + id + ": no room for a mapping of " + len + " bytes");
        }
        return addr;
    }

    /** Inserts a VMA; the range must be free. */
    public Vma insertVma(long start, long end, boolean writable, boolean shared) {
        return insert(start, end, writable, shared, null);
    }

    private Vma insert(long start, long end, boolean writable, boolean shared, ShmemObject shmem) {
        PageTables.checkUserRange(start, end);
        if (overlaps(start, end)) {
            throw new ModelException(String.format("mm %d: [0x%x, 0x%x) overlaps an existing mapping", id, start, end));
        }
        Vma v = new Vma(start, end, writable, shared, shmem);
        vmas.put(start, v);
        return v;
    }

    /**
     * mmap(MAP_SHARED | MAP_ANONYMOUS): a shared mapping of a shmem file of its own
     * ({@link ShmemObject}), which munmap() tears down with the mapping's last VMA.
     */
    public Vma insertSharedAnonymousVma(long start, long end, boolean writable) {
        return insert(start, end, writable, true, new ShmemObject());
    }

    /** What {@link #removeRange} did: whether any VMA went, and how many shmem files lost their last mapping with it. */
    public record Removal(boolean any, int releasedShmem) {
        static final Removal NONE = new Removal(false, 0);
    }

    /**
     * Removes [start, end) from the VMA tree, splitting VMAs that straddle its ends
     * (__split_vma), and drops each removed VMA's reference to its shmem file (remove_vma()).
     */
    public Removal removeRange(long start, long end) {
        splitAt(start);
        splitAt(end);
        java.util.NavigableMap<Long, Vma> doomed = vmas.subMap(start, true, end, false);
        if (doomed.isEmpty()) {
            return Removal.NONE;
        }
        int released = 0;
        for (Vma v : doomed.values()) {
            if (v.shmem != null && v.shmem.unmapped()) {
                released++;
            }
        }
        doomed.clear();
        lastFound = null;
        return new Removal(true, released);
    }

    /** Changes the protection of [start, end), splitting as needed (mprotect_fixup). */
    public boolean protectRange(long start, long end, boolean writable) {
        splitAt(start);
        splitAt(end);
        boolean any = false;
        for (Vma v : vmas.subMap(start, true, end, false).values()) {
            v.writable = writable;
            any = true;
        }
        return any;
    }

    private void splitAt(long addr) {
        Vma v = findVma(addr);
        if (v == null || v.start == addr) {
            return;
        }
        Vma tail = new Vma(addr, v.end, v.writable, v.shared, v.shmem);
        tail.dax = v.dax;
        if (v.shmem != null) {
            v.shmem.mappedAgain();
        }
        v.end = addr;
        vmas.put(addr, tail);
    }

    /** Bytes of the range [start, end) that are mapped. */
    public long mappedBytes(long start, long end) {
        long n = 0;
        for (Vma v : vmas.values()) {
            n += Math.max(0, Math.min(end, v.end) - Math.max(start, v.start));
        }
        return n;
    }

    @Override
    public String toString() {
        return isInitMm ? "init_mm" : "mm" + id;
    }
}

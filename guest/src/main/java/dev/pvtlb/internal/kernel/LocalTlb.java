package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.cache.SetAssociativeCache;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.HardwareWalker;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.Walker;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.tlb.Tlb;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;

/**
 * One CPU's address translation and its local TLB maintenance: the STLB (shared with SMT
 * siblings when the machine shares it), the paging-structure caches, the hardware walker, the
 * L1 DTLB and the data caches a user access loads through. The instructions the kernel runs on
 * the CPU itself live here (INVLPG, INVPCID, a CR3 write without NOFLUSH), as does the user
 * access that hits, misses and refills (the hardware's side of a TLB).
 */
public final class LocalTlb {
    private static final LocalTlb[] NONE = new LocalTlb[0];

    /** The CPU's number, its cpu_tlbstate, and what of the kernel a user access uses (not the kernel itself). */
    private final int cpu;
    private final TlbState state;
    private final Engine engine;
    private final Costs costs;
    private final GuestKnobs knobs;
    private final VmStat vmstat;
    private final CostLedger ledger;
    private final PageTables pageTables;
    /** Checks a hit on a translation older than the mm's last flush (set at boot, once the detector exists). */
    private HazardDetector detector;
    private Tlb tlb;
    private final PagingStructureCache psc;
    private final HardwareWalker walker;
    /** The TLBs of the logical CPUs that share this one's STLB (SMT siblings with a shared TLB), self excluded. */
    private LocalTlb[] sharers = NONE;
    /** Offset of this thread's hardware PCIDs in a TLB shared with siblings. */
    private int pcidBase = 0;
    /** The data caches this CPU loads through, and its L1 DTLB (cost only: the STLB is {@link #tlb}). */
    private CacheHierarchy caches;
    private SetAssociativeCache dtlb;
    /** The last user address this CPU touched: where a speculative walk would go. */
    private long lastUserVa = -1;

    LocalTlb(int cpu, TlbState state, Tlb tlb, PagingStructureCache psc, HardwareWalker walker, Engine engine,
             Costs costs, GuestKnobs knobs, VmStat vmstat, CostLedger ledger, PageTables pageTables) {
        this.cpu = cpu;
        this.state = state;
        this.tlb = tlb;
        this.psc = psc;
        this.walker = walker;
        this.engine = engine;
        this.costs = costs;
        this.knobs = knobs;
        this.vmstat = vmstat;
        this.ledger = ledger;
        this.pageTables = pageTables;
    }

    /** The hazard detector: it watches this CPU's walks and its hits on translations a flush should have dropped. */
    void detector(HazardDetector d) {
        this.detector = d;
        walker.observer(d);
    }

    /** Wired once by the kernel after every CPU exists (siblings share their core's levels). */
    void caches(CacheHierarchy caches, SetAssociativeCache dtlb) {
        this.caches = caches;
        this.dtlb = dtlb;
    }

    /** This CPU's loads go through {@code caches} from now on (a vCPU placed on a pCPU of the host's). */
    public void loadsThrough(CacheHierarchy caches) {
        this.caches = caches;
    }

    /** Makes this CPU share {@code sharers}' TLB; its PCIDs are offset so tags never collide. */
    void share(Tlb shared, LocalTlb[] sharers, int pcidBase) {
        this.tlb = shared;
        this.sharers = sharers;
        this.pcidBase = pcidBase;
    }

    public Tlb tlb() {
        return tlb;
    }

    public PagingStructureCache psc() {
        return psc;
    }

    public HardwareWalker walker() {
        return walker;
    }

    /** kern_pcid(asid): the hardware PCID of a dynamic ASID slot (asid + 1; 0 is left unused). */
    public int pcid(int asid) {
        return pcidBase + asid + 1;
    }

    /** PCID of the currently loaded address space. */
    public int currentPcid() {
        return pcid(state.loadedMmAsid);
    }

    public long lastUserVa() {
        return lastUserVa;
    }

    /**
     * Invalidates one page of {@code mm} cached under ASID slot {@code asid} (INVLPG in that
     * PCID, or INVPCID individual-address), here and in a TLB shared with SMT siblings.
     */
    void invlpgAsid(int asid, MmHandle mm, long va) {
        long vpn = va >>> 12;
        int pcid = pcid(asid);
        tlb.invalidate(pcid, vpn);
        psc.flushPcid(pcid);
        for (LocalTlb s : siblingsReached()) {
            int slot = s.asidSlotOf(mm);
            if (slot >= 0) {
                tlb.invalidate(s.pcid(slot), vpn);
                s.psc.flushPcid(s.pcid(slot));
            }
        }
    }

    /**
     * The SMT siblings whose entries of the same mm this thread's invalidation also drops in the
     * shared TLB: all of them under {@code smt.flushDropsSibling=true} (Alex Shi's assumption),
     * none otherwise (Intel documents no such guarantee).
     */
    private LocalTlb[] siblingsReached() {
        return knobs.smtFlushDropsSibling ? sharers : NONE;
    }

    /** Drops every non-global translation of this CPU, all ASIDs (a flush done from outside the guest). */
    void flushAllAsids() {
        for (int asid = 0; asid < TlbState.NR_DYN_ASIDS; asid++) {
            tlb.flushPcid(pcid(asid));
        }
        psc.flushAll();
    }

    /** Drops the translations cached under a dynamic ASID slot (a CR3 write without NOFLUSH). */
    void flushAsid(int asid, MmHandle mm) {
        int pcid = pcid(asid);
        tlb.flushPcid(pcid);
        psc.flushPcid(pcid);
        for (LocalTlb s : siblingsReached()) {
            int slot = s.asidSlotOf(mm);
            if (slot >= 0) {
                tlb.flushPcid(s.pcid(slot));
                s.psc.flushPcid(s.pcid(slot));
            }
        }
    }

    /** The ASID slot caching {@code mm}'s context on this CPU, or -1. */
    int asidSlotOf(MmHandle mm) {
        if (mm == null) {
            return -1;
        }
        for (int i = 0; i < TlbState.NR_DYN_ASIDS; i++) {
            if (state.ctxId[i] == mm.ctxId()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A walk the CPU may do at any moment on its loaded CR3, even while lazy or idle
     * (speculation, prefetch): fills the TLB and the paging-structure caches. Returns the
     * leaf found or 0.
     */
    public long speculativeWalk(long va) {
        Mm mm = state.loadedMm;
        int pcid = currentPcid();
        long pte = walker.walk(mm.pgd(), pcid, va, false, Walker.SPECULATIVE);
        if (pte != 0) {
            tlb.fill(pcid, va >>> 12, pte, engine.now());
        }
        return pte;
    }

    /**
     * One user-mode load or store through the TLB, as the hardware does it: a hit costs a
     * cached access; a miss (or a store through a clean entry, which must set the dirty bit)
     * walks the page tables and fills the TLB. Returns the cost in picoseconds, or -1 when the
     * access faults (the faulting entry is dropped, as x86 does on a page fault).
     */
    public long userAccess(long va, boolean write) {
        lastUserVa = va;
        int pcid = currentPcid();
        long vpn = va >>> 12;
        int i = tlb.lookup(pcid, vpn);
        if (i >= 0) {
            if (tlb.filledAt(i) < state.loadedMm.lastFlushReturned()) {
                detector.checkTranslation(cpu, state.loadedMm, tlb, i, va, write);
            }
            long pte = tlb.pte(i);
            if (!write || (pte & (Pte.RW | Pte.DIRTY)) == (Pte.RW | Pte.DIRTY)) {
                // An STLB hit: the L1 DTLB decides whether it costs more than the load itself.
                long ps = caches.loadPs(dataLine(pte, va));
                return dtlb.access(((long) pcid << 40) | vpn) ? ps : ps + costs.stlbHitPs;
            }
            if (!Pte.writable(pte)) {
                tlb.invalidate(pcid, vpn);
                return -1;
            }
        } else {
            vmstat.inc(Counter.TLB_MISSES);
        }
        long pte = walker.walk(state.loadedMm.pgd(), pcid, va, write, Walker.HARDWARE);
        if (pte == 0) {
            return -1;
        }
        tlb.fill(pcid, vpn, pte, engine.now());
        dtlb.access(((long) pcid << 40) | vpn);
        // Each table read of the walk is a load through the caches: after a flush, a working set
        // whose page-table lines were pushed out refills from the L2, the LLC or memory.
        long walkPs = 0;
        for (int r = 0, n = walker.levelsRead(); r < n; r++) {
            walkPs += Math.max(costs.walkLevelPs, caches.loadPs(walker.readLine(r)));
        }
        ledger.addPs(CostPart.TLB_REFILLS, walkPs);
        return caches.loadPs(dataLine(pte, va)) + walkPs;
    }

    /**
     * What a host flush of this vCPU (kvm_flush_remote_tlbs() under shadow paging) leaves: the
     * hardware TLB is emptied, but a refill walks the host's shadow tables, whose entry for an
     * address the guest changed and has not flushed yet is still the old one (the guest's own flush
     * of that address is what syncs it). So the loaded mm's entries that its page tables still back
     * go, and those they no longer back (what a guest bug leaves stale) stay, as a refill would
     * bring them back; other PCIDs' entries and the paging-structure caches stay too. The model has
     * no shadow tables; this keeps a host flush from hiding a guest's missing flush.
     */
    public void flushBackedTranslations() {
        Mm mm = state.loadedMm;
        if (mm == null || mm.isInitMm()) {
            return;
        }
        int pgd = mm.pgd();
        tlb.invalidateIf(currentPcid(), (vpn, pte) -> {
            long now = pageTables.get(pgd, vpn << 12);
            return Pte.present(now) && Pte.pfnOf(now) == Pte.pfnOf(pte) && (!Pte.writable(pte) || Pte.writable(now));
        });
    }

    /** A kernel store to physical line {@code line} on this CPU: it is now in this CPU's caches (its cost is the caller's). */
    public void storeLine(long line) {
        caches.loadPs(line);
    }

    /** The physical line a load of {@code va} through {@code pte} reads. */
    static long dataLine(long pte, long va) {
        return (Pte.pfnOf(pte) << 6) | ((va >>> 6) & 63);
    }

    /** Before a guest reset's exact rerun: TLB and paging-structure caches as new. */
    void clear() {
        tlb.clear();
        psc.clear();
    }

    /** A new run on the same guest: every translation dropped, no user access yet. */
    void reset() {
        tlb.flushAll();
        psc.flushAll();
        lastUserVa = -1;
    }
}

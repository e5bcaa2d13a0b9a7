package dev.pvtlb.pvops;

import dev.pvtlb.flush.LazyMode;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import java.util.List;

/**
 * The guest kernel's design knobs, read once at boot into fields for the hot paths. The host model's are
 * {@link dev.pvtlb.smp.HostKnobs}, each backend's its own; {@link KnobRegistry} gathers them for a run.
 */
public final class GuestKnobs {
    public static final KnobSpec CONCURRENT_FLUSH = KnobSpec.bool("native.concurrentFlush", true,
            "the x86/tlb concurrent-flush series (Nadav Amit, Linux 5.13): flush locally while remote IPIs are in flight "
                    + "(4ce94eabac16), is_lazy on a line of its own (cpu_tlbstate_shared) written only when it changes, "
                    + "a call that sends one IPI sends it by the single-target path; "
                    + "false: the local flush before the remote ones, is_lazy in cpu_tlbstate's line, dirtied by "
                    + "every flush_tlb_func() and switch_mm, and the single-target path for a call with one target");
    public static final KnobSpec SMT_SIBLING_DEDUP = KnobSpec.bool("native.smtSiblingDedup", false,
            "IPI only one thread of each SMT pair in the mask (Alex Shi, LKML 2012; not merged)");
    public static final KnobSpec LAZY = KnobSpec.choice("lazy", "skip",
            "lazy TLB: off = idle switches to init_mm; ipi = lazy CPUs take every flush IPI; "
                    + "skip = lazy CPUs skipped unless tables were freed; skip-nofree = skipped even then (bug)",
            "off", "ipi", "skip", "skip-nofree");
    public static final KnobSpec TABLE_FREE = KnobSpec.choice("tableFree", "rcu",
            "how freed page tables are released after the flush: immediate, ipi-sync "
                    + "(tlb_remove_table_sync_one), rcu (MMU_GATHER_RCU_TABLE_FREE, x86 default)",
            "immediate", "ipi-sync", "rcu");

    public static final KnobSpec NESTED_FLUSH = KnobSpec.choice("nestedFlush", "flush",
            "tlb_finish_mmu() when another zap of the mm is in flight (mm_tlb_flush_nested): flush = flush the whole "
                    + "range anyway (fix 99baac21e458, 2017); skip = flush only what this zap cleared (the MADV_DONTNEED miss); "
                    + "reset-range = __tlb_reset_range() first, forgetting freed_tables (dd2283f2605e, fixed by 7a30df49f63a, 2019)",
            "flush", "skip", "reset-range");
    public static final KnobSpec SHOULD_FLUSH_TLB = KnobSpec.choice("shouldFlushTlb", "lazy",
            "should_flush_tlb() for a flush that freed no tables: lazy = skip lazy CPUs only (until 6.13); loaded-mm = also "
                    + "skip CPUs whose loaded_mm is not the mm, LOADED_MM_SWITCHING included (6.14, CVE-2025-37964); "
                    + "switching = a CPU in LOADED_MM_SWITCHING is flushed (fix fea4e317f9e7, 6.15)",
            "lazy", "loaded-mm", "switching");
    public static final KnobSpec MREMAP_FLUSH = KnobSpec.choice("mremapFlush", "under-ptl",
            "move_ptes(): under-ptl = flush the old range before dropping the page-table lock (fix eb66ae030829, 2018); "
                    + "after-unlock = flush clean PTEs only at the end of move_page_tables() (CVE-2018-18281)",
            "under-ptl", "after-unlock");
    public static final KnobSpec TABLE_BATCH = KnobSpec.choice("tableBatch", "ok",
            "tlb_remove_table() when no batch page can be had: ok = never fails; fail-noinvalidate = tlb_remove_table_one() "
                    + "frees after an IPI sync but before any TLB invalidation (x86 RCU_TABLE_FREE, 2017-2018); fail-invalidate = "
                    + "tlb_table_invalidate() first (fix d86564a2f085, 2018)",
            "ok", "fail-noinvalidate", "fail-invalidate");

    public static final KnobSpec MEMORY_MODEL = KnobSpec.choice("memoryModel", "sc",
            "ordering of the flush protocol's per-CPU stores (is_lazy, loaded_mm): sc = visible at once; tso = x86-TSO "
                    + "store buffer drained at explorer-chosen times and by locked or serializing instructions; arm = arm64, "
                    + "drained in any order until a barrier (explore defaults to the backend's CPU: arm on arm64, else tso)",
            "sc", "tso", "arm");

    public static final KnobSpec SWITCH_MM_BARRIER = KnobSpec.choice("switchMmBarrier", "smp_mb",
            "switch_mm_irqs_off() leaving lazy mode on the same mm: smp_mb = the kernel's full barrier between the is_lazy "
                    + "store and the tlb_gen read; none = without it (store buffering lets a flush skip the CPU under "
                    + "memoryModel=tso|arm)",
            "smp_mb", "none");

    public static final KnobSpec X2APIC = KnobSpec.choice("x86.x2apic", "physical",
            "x2APIC destination mode of IPIs: physical = one ICR write per target (x2apic_phys.c); cluster = one ICR "
                    + "write per cluster of 16 APIC IDs in the mask (x2apic_cluster.c, apic_cluster(id) = id >> 4)",
            "physical", "cluster");

    public static final KnobSpec SMT_FLUSH_DROPS_SIBLING = KnobSpec.bool("smt.flushDropsSibling", true,
            "with smt.sharedTlb=true: an INVLPG or PCID flush by one thread also drops its sibling's entries of the same mm, "
                    + "as Alex Shi's SMT dedup patch assumed (LKML 2012); Intel documents no such guarantee: false = each "
                    + "thread's invalidation drops only its own PCID's entries");

    public static final KnobSpec MM_CPUMASK = KnobSpec.choice("x86.mmCpumask", "clear-on-switch",
            "mm_cpumask lifecycle: clear-on-switch = switch_mm clears the CPU's bit in the previous mm (until 6.13); lazy = the bit "
                    + "stays set and the first flush sent to a CPU that left the mm clears it, TLB_REMOTE_WRONG_CPU (209954cbc7d0, "
                    + "\"x86/mm/tlb: Update mm_cpumask lazily\"); lazy-trim = as lazy, and with shouldFlushTlb=loaded-mm|switching such "
                    + "CPUs are sent a flush only when the mm's cpumask is trimmed, at most once a second (6db2526c1d69)",
            "clear-on-switch", "lazy", "lazy-trim");

    public static final KnobSpec RCU = KnobSpec.choice("rcu", "sched",
            "RCU flavour of the grace period that frees page tables: sched = a CPU is quiescent only in user mode, idle or "
                    + "at a context switch (non-preemptible kernel, CONFIG_PREEMPT_RCU=n); preempt = CONFIG_PREEMPT_RCU: a CPU in "
                    + "kernel code with IRQs on holds no read-side section, so only CPUs with IRQs off (gup_fast) delay the "
                    + "grace period (the scheduling-clock tick reports the others at the earliest moment)",
            "sched", "preempt");

    public static final KnobSpec MMAP_LOCK = KnobSpec.choice("mmapLock", "vma",
            "mm->mmap_lock: off = nothing takes it (a switch of the model: no Linux runs without it); rwsem = the reader/writer semaphore it is: mmap, munmap "
                    + "(downgraded to read before it zaps, dd2283f2605e), mprotect and mremap write-lock it, madvise(MADV_DONTNEED) "
                    + "and page faults read-lock it (no per-VMA locks, as before 6.4; a writer spins while a running writer holds it), a task that "
                    + "must wait sleeps and is woken with a reschedule IPI; vma = the same for system calls, while page faults take their "
                    + "VMA's own lock (lock_vma_under_rcu(), per-VMA locks since 6.4, 5e31275cc997 and its x86 user) and never wait on mmap_lock "
                    + "(docs/scenarios.md, mmap_lock); the default is vma, mainline's since 6.4",
            "off", "rwsem", "vma");

    public static final KnobSpec RWSEM_READER_SPIN = KnobSpec.bool("rwsem.readerSpin", false,
            "with mmapLock=rwsem|vma: a reader that finds mmap_lock owned by a writer running on a CPU spins on it "
                    + "(rwsem_optimistic_spin() for readers, cf69482d62d9, 5.3) and takes the read lock when the writer "
                    + "releases it, ahead of the queue, instead of sleeping; false: readers sleep, as before 5.3 and since "
                    + "617f3ef95177 (5.12)");

    public static final KnobSpec PAGE_LOCKS = KnobSpec.choice("pageLocks", "off",
            "the page allocator's and the LRU's node locks, as Linux 5.2 takes them for anonymous memory: off = none (the model "
                    + "so far); on = a fault refills its CPU's free list under zone->lock every page.pcp.batch pages and adds "
                    + "pages to the LRU under lru_lock every pagevec pages, an unmap's freed pages come off the LRU under "
                    + "lru_lock and go back to the buddy lists under zone->lock past page.pcp.high; queued spinlocks with IRQs "
                    + "off, whose waiters halt and are kicked with paravirtual spinlocks (kvm.pvSpinlock)",
            "off", "on");

    public static final KnobSpec PAGEVEC = KnobSpec.choice("pagevec", "31",
            "with pageLocks=on: PAGEVEC_SIZE, how many pages a CPU's LRU-add vector gathers before they go onto the LRU "
                    + "under lru_lock in one hold (__pagevec_lru_add(), folio_batch_move_lru()): 15 as in 4.19 .. 6.8 "
                    + "(include/linux/pagevec.h), 31 since Matthew Wilcox's 9cecde80aae0 \"mm: increase folio batch size\" "
                    + "(6.9-rc2)",
            "15", "31");

    public static final KnobSpec LRU_ADD_DRAIN = KnobSpec.bool("lruAddDrain", false,
            "with pageLocks=on: munmap(), madvise(MADV_DONTNEED) and a file truncation's unmap first drain the CPU's LRU-add "
                    + "page vector (lru_add_drain() at the start of unmap_region() and zap_page_range(), taking lru_lock for the "
                    + "pages the vector holds), as every release did until Rik van Riel's \"mm: remove unnecessary calls to "
                    + "lru_add_drain\" (posted 2024-12-19, lkml.org/lkml/2024/12/19/1388; in the mm tree for 6.14); false: the "
                    + "vector waits until a fault fills it, as since then");

    public static final KnobSpec PV_WAIT_EARLY = KnobSpec.choice("pvqspinlock.waitEarly", "halted",
            "with paravirtual spinlocks, when a queued waiter stops spinning early and halts in pv_wait() (pv_wait_early(), "
                    + "kernel/locking/qspinlock_paravirt.h): halted = when the waiter before it has halted (before 4.11, and "
                    + "since the revert 89340d0935c9 in 5.4 and the 5.3 and 4.19 stable updates of October 2019); preempted = also when that waiter's vCPU is "
                    + "preempted, vcpu_is_preempted(prev->cpu) (75437bb304b2, \"locking/pvqspinlock: Don't wait if vCPU is "
                    + "preempted\", 4.11): each waiter behind a preempted one halts, and the queue behind it after it (the "
                    + "cascade the revert names)",
            "halted", "preempted");

    public static final KnobSpec VIRT_SPIN_LOCK = KnobSpec.choice("virtSpinLock", "tas",
            "a guest on a hypervisor whose spinlocks are not paravirtual (kvm.pvSpinlock=false): tas = the queued spinlock's "
                    + "slowpath starts with virt_spin_lock(), a test-and-set loop, so a waiter never queues and whichever spinner "
                    + "looks first takes a released lock, a preempted waiter holding up nobody (native_pv_lock_init() enables "
                    + "virt_spin_lock_key on any hypervisor; kvm_spinlock_init() leaves it so when the host lacks "
                    + "KVM_FEATURE_PV_UNHALT); off = the fair queued lock, as with nopvspin or KVM_HINTS_REALTIME, where "
                    + "kvm_spinlock_init() disables the key",
            "tas", "off");

    public static final KnobSpec ZERO_PAGE = KnobSpec.choice("zeroPage", "off",
            "the shared zero page: off = a read fault on anonymous memory allocates a page as a write does (the model so "
                    + "far); on = it maps the zero page read-only (do_anonymous_page()), and the first write copies it "
                    + "(wp_page_copy()): ptep_clear_flush() flushes the page from every CPU of mm_cpumask, a remote "
                    + "shootdown when other CPUs run the mm, before the copy is mapped",
            "off", "on");

    public static final KnobSpec SCHED_BALANCE = KnobSpec.choice("sched.balance", "idle",
            "whether the guest's scheduler moves tasks between CPUs: none = each task stays on the CPU it was spawned on "
                    + "(as if every thread were taskset to its CPU); idle (the default, every release) = as Linux's fair class does within a last-level cache: a "
                    + "waking task goes to an idle CPU when its own is busy (select_idle_sibling(), whole idle cores first), and a "
                    + "CPU about to go idle pulls a queued task that has been off its CPU at least sched_migration_cost from the "
                    + "busiest CPU (newidle_balance(), can_migrate_task()); a task whose workload pins it (tlb-flush2's cores, the "
                    + "catalogue's races) stays within its affinity; counted as migrations",
            "none", "idle");

    public static final KnobSpec KERNEL = KnobSpec.choice(KernelRelease.KNOB, KernelRelease.NONE,
            "set every design knob, the guest's and the backend's, to what that Linux release did (KernelRelease; docs/scenarios.md, "
                    + "Kernel presets); a knob set explicitly wins; none = each knob's own default",
            KernelRelease.choices());

    public static final KnobSpec INJECT = KnobSpec.choice("inject", "none",
            "plant one kernel-style bug, for a mutation test of a scenario (docs/scenarios.md, Mutation test): " + String.join(", ", InjectedBug.names()),
            InjectedBug.names());

    public static final List<KnobSpec> SPECS = List.of(CONCURRENT_FLUSH, SMT_SIBLING_DEDUP, LAZY, TABLE_FREE,
            NESTED_FLUSH, SHOULD_FLUSH_TLB, MREMAP_FLUSH, TABLE_BATCH, MEMORY_MODEL, SWITCH_MM_BARRIER, X2APIC, SMT_FLUSH_DROPS_SIBLING,
            MM_CPUMASK, RCU, MMAP_LOCK, RWSEM_READER_SPIN, PAGE_LOCKS, PAGEVEC, LRU_ADD_DRAIN, PV_WAIT_EARLY, VIRT_SPIN_LOCK, ZERO_PAGE, SCHED_BALANCE, KERNEL, INJECT);

    public final boolean concurrentFlush;
    public final boolean smtSiblingDedup;
    public final LazyMode lazy;
    public final TableFreePolicy tableFree;
    public final boolean nestedFlush;
    public final boolean x2apicCluster;
    /** smt.flushDropsSibling: a thread's invalidation also reaches its sibling's PCIDs in a shared TLB. */
    public final boolean smtFlushDropsSibling;
    /** nestedFlush=reset-range: a nested zap's flush forgets freed_tables (__tlb_reset_range). */
    public final boolean nestedFlushResetsRange;
    /** should_flush_tlb() also requires loaded_mm == info->mm (6db2526c1d69, 6.14+). */
    public final boolean shouldFlushChecksLoadedMm;
    /** should_flush_tlb() flushes a CPU in LOADED_MM_SWITCHING (fea4e317f9e7). */
    public final boolean shouldFlushSwitching;
    /** move_ptes() flushes before dropping the page-table lock (eb66ae030829). */
    public final boolean mremapFlushUnderPtl;
    /** tlb_remove_table() finds no batch page (tableBatch=fail-*). */
    public final boolean tableBatchFails;
    /** tlb_table_invalidate() before tlb_remove_table_one() (d86564a2f085). */
    public final boolean tableBatchInvalidates;
    /** memoryModel: sc, tso or arm. */
    public final String memoryModel;
    /** switchMmBarrier=smp_mb: the barrier before the tlb_gen read when leaving lazy mode. */
    public final boolean switchMmSmpMb;
    /** x86.mmCpumask=lazy|lazy-trim: switch_mm leaves the previous mm's bit set (209954cbc7d0). */
    public final boolean mmCpumaskLazy;
    /** x86.mmCpumask=lazy-trim: a flush trims mm_cpumask once a second (6db2526c1d69). */
    public final boolean mmCpumaskTrim;
    /** rcu=preempt: only IRQs-off CPUs hold up a grace period. */
    public final boolean preemptRcu;
    /** The planted bug of a mutation test, {@link InjectedBug#NONE} otherwise. */
    public final InjectedBug bug;
    /** mmapLock=rwsem|vma: a task's system calls take its mm's mmap_lock. */
    public final boolean mmapLock;
    /** mmapLock=rwsem: its page faults read-lock it too (vma: they take the VMA's lock instead). */
    public final boolean faultsTakeMmapLock;
    /** rwsem.readerSpin: a reader spins on a running writer that owns mmap_lock (5.3 .. 5.11). */
    public final boolean rwsemReaderSpin;
    /** pageLocks=on: faults and frees take the node's zone->lock and lru_lock (PageLists). */
    public final boolean pageLocks;
    /** pvqspinlock.waitEarly=preempted: a queued waiter also halts behind a preempted predecessor (75437bb304b2). */
    public final boolean pvWaitEarlyPreempted;
    /** virtSpinLock=tas: without paravirtual spinlocks a hypervisor guest's spinlocks are test-and-set (virt_spin_lock()). */
    public final boolean virtSpinLockTas;
    /** pagevec: PAGEVEC_SIZE, the pages of a CPU's LRU-add vector (pageLocks=on; 15 before 6.9, 31 since). */
    public final int pagevec;
    /** lruAddDrain: an unmap drains the CPU's LRU-add page vector first (pageLocks=on; every release before 6.14). */
    public final boolean lruAddDrain;
    /** zeroPage=on: read faults on anonymous memory map the shared zero page; writes copy it. */
    public final boolean zeroPage;
    /** sched.balance=idle: guest tasks move to idle CPUs (wake-up placement and newly idle pulls). */
    public final boolean guestBalanceIdle;

    public GuestKnobs(Knobs k) {
        concurrentFlush = k.bool(CONCURRENT_FLUSH.name());
        smtSiblingDedup = k.bool(SMT_SIBLING_DEDUP.name());
        bug = InjectedBug.of(k.get(INJECT.name()));
        preemptRcu = k.get(RCU.name()).equals("preempt");
        mmapLock = !k.get(MMAP_LOCK.name()).equals("off");
        faultsTakeMmapLock = k.get(MMAP_LOCK.name()).equals("rwsem");
        guestBalanceIdle = k.get(SCHED_BALANCE.name()).equals("idle");
        rwsemReaderSpin = k.bool(RWSEM_READER_SPIN.name());
        pageLocks = k.get(PAGE_LOCKS.name()).equals("on");
        zeroPage = k.get(ZERO_PAGE.name()).equals("on");
        lruAddDrain = k.bool(LRU_ADD_DRAIN.name());
        pagevec = Integer.parseInt(k.get(PAGEVEC.name()));
        virtSpinLockTas = k.get(VIRT_SPIN_LOCK.name()).equals("tas");
        pvWaitEarlyPreempted = k.get(PV_WAIT_EARLY.name()).equals("preempted");
        String cpumask = k.get(MM_CPUMASK.name());
        mmCpumaskLazy = !cpumask.equals("clear-on-switch");
        mmCpumaskTrim = cpumask.equals("lazy-trim");
        lazy = bug == InjectedBug.LAZY_SKIPS_FREED_TABLES ? LazyMode.SKIP_NOFREE : LazyMode.of(k.get(LAZY.name()));
        tableFree = TableFreePolicy.of(k.get(TABLE_FREE.name()));
        x2apicCluster = k.get(X2APIC.name()).equals("cluster");
        smtFlushDropsSibling = k.bool(SMT_FLUSH_DROPS_SIBLING.name());
        nestedFlush = !k.get(NESTED_FLUSH.name()).equals("skip");
        nestedFlushResetsRange = k.get(NESTED_FLUSH.name()).equals("reset-range");
        String sft = k.get(SHOULD_FLUSH_TLB.name());
        shouldFlushChecksLoadedMm = !sft.equals("lazy");
        shouldFlushSwitching = sft.equals("switching");
        mremapFlushUnderPtl = k.get(MREMAP_FLUSH.name()).equals("under-ptl");
        String tb = k.get(TABLE_BATCH.name());
        tableBatchFails = !tb.equals("ok");
        tableBatchInvalidates = tb.equals("fail-invalidate");
        memoryModel = k.get(MEMORY_MODEL.name());
        switchMmSmpMb = k.get(SWITCH_MM_BARRIER.name()).equals("smp_mb");
    }
}

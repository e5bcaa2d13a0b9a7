package dev.pvtlb.pvops;

import dev.pvtlb.knob.KnobSpec;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code kernel} preset: what one Linux release did in each design the knobs name, guest
 * and backends alike, with the host at the same release as the guest (KVM's knobs and
 * {@code host.scheduler} are host code). A release is its first tag (vX.Y), not a later stable
 * update: a fix backported to 4.19.y is not in {@code 4.19}. Knobs the user sets win over the
 * preset in any order. docs/scenarios.md ("Kernel presets") has the table with what was
 * checked against the sources; a value the table marks "not verified" comes from the commit's
 * date and the knob's description, not from a tagged tree.
 *
 * <p>Not set by any release (see {@link #EXCLUDED}): bugs planted for mutation tests, facts of
 * the hardware, firmware or kernel configuration, host tunables and switches of the model's own
 * fidelity.
 */
public enum KernelRelease {
    /** v4.19 (2018-10-22). */
    V4_19("4.19", null, List.of(
            // native_flush_tlb_others() waits for the remote CPUs, the local flush is not overlapped with
            // them: the concurrent series (4ce94eabac16, "x86/mm/tlb: Flush remote and local TLBs
            // concurrently") came with 5.13.
            Design.of("native.concurrentFlush", "false"),
            // Alex Shi's SMT dedup (LKML 2012) was never merged.
            Design.of("native.smtSiblingDedup", "false"),
            // Linus's "Merge fixes for missing TLB shootdowns" (tlb-fixes, 4.19 merge window) reverted Rik van
            // Riel's lazy TLB patches; lazy CPUs took every flush IPI and switched to init_mm in
            // flush_tlb_func_common(). The re-done series (145f573b89a6, "Make lazy TLB mode lazier") is 4.20.
            Design.of("lazy", "ipi"),
            // 48a8b97cfd80 "x86/mm: Only use tlb_remove_table() for paravirt" (same tlb-fixes merge): bare metal
            // frees tables with tlb_remove_page() after the flush; Xen PV, Hyper-V and KVM's PV flush keep
            // tlb_remove_table(), MMU_GATHER_RCU_TABLE_FREE; arm64 selects it.
            Design.tableFree("immediate"),
            // 99baac21e458 (2017, 4.15) flushes a nested zap's whole range; dd2283f2605e, which forgot
            // freed_tables, is 4.20.
            Design.of("nestedFlush", "flush"),
            // should_flush_tlb() does not exist; native_flush_tlb_others() skips no CPU but lazy ones.
            Design.of("shouldFlushTlb", "lazy"),
            // eb66ae030829 "mremap: properly flush TLB before releasing the page" (2018-10-12, CVE-2018-18281).
            Design.of("mremapFlush", "under-ptl"),
            // switch_mm_irqs_off()'s smp_mb() before reading tlb_gen when leaving lazy mode on the same mm;
            // with lazy=ipi a flushed lazy CPU has left the mm, so the barrier has nothing to order.
            Design.of("switchMmBarrier", "smp_mb"),
            // switch_mm_irqs_off() clears the CPU's bit in the previous mm (cpumask_clear_cpu()).
            Design.of("x86.mmCpumask", "clear-on-switch"),
            // CFS; EEVDF (147f3efaa241) is 6.6.
            Design.of("host.scheduler", "cfs"),
            // select_idle_sibling() on wake-up and newidle_balance() (idle_balance() before 5.x): every release.
            Design.of("host.balance", "idle"),
            // The guest's own scheduler does the same with its tasks: every release.
            Design.of("sched.balance", "idle"),
            // mm->mmap_lock is a reader/writer semaphore that page faults read-lock: per-VMA locks
            // (5e31275cc997, lock_vma_under_rcu()) are 6.4.
            Design.of("mmapLock", "rwsem"),
            // A reader facing a writer sleeps: reader spinning (cf69482d62d9) is 5.3.
            Design.of("rwsem.readerSpin", "false"),
            // unmap_region() and zap_page_range() begin with lru_add_drain(), as they have since 2.6 (checked
            // in 4.x's zap_page_range()).
            Design.of("lruAddDrain", "true"),
            // PAGEVEC_SIZE 15 (include/linux/pagevec.h), until 9cecde80aae0 (6.9-rc2).
            Design.of("pagevec", "15"),
            // KVM_FEATURE_PV_TLB_FLUSH, kvm_flush_tlb_others() (858a43aae236, 4.16).
            Design.of("kvm.pvTlbFlush", "true"),
            // record_steal_time() clears preempted in a copy it writes back later (CVE-2019-3016); the xchg fix
            // b043138246a4 "x86/KVM: Make sure KVM_VCPU_FLUSH_TLB flag is not missed" is 5.6.
            Design.of("kvm.hostClearPreempted", "plain-write"),
            // vcpu->ready (d73eb57b80b9, "KVM: Boost vCPUs that are delivering interrupts") is 5.2.
            Design.of("kvm.boost", "false"),
            // kvm_arch_dy_has_pending_interrupt() for user-mode vCPUs (52acd22faa1a) is 5.13.
            Design.of("kvm.boostUserMode", "false"),
            // KVM_HC_KICK_CPU's kvm_sched_yield() (266e85a5ec91) was applied on 2019-07-24, after 5.3-rc1: 5.4.
            Design.of("kvm.kickYield", "false"),
            // KVM_HC_SCHED_YIELD (715062970f37, "KVM: X86: Implement PV sched yield in linux guest") is 5.3.
            Design.of("kvm.pvSchedYield", "false"),
            // kvm_arch_vcpu_put() sets steal_time.preempted on every put, a halted vCPU's included (as
            // 9ee83635d872's message of 2022 describes); "KVM: x86: do not set st->preempted when going
            // back to user space" (2022) limited it to vCPUs preempted while runnable.
            Design.of("kvm.preemptedOnHalt", "true"),
            // kvm_smp_send_call_func_ipi() yields to the first preempted target, idle or not, until
            // 9ee83635d872 "KVM: x86: Yield to IPI target vCPU only if it is busy" (5.17).
            Design.of("kvm.schedYieldSkipsIdle", "false"),
            // pv_wait_early() halts a queued waiter whose predecessor's vCPU is preempted: 75437bb304b2 (4.11) until
            // the revert 89340d0935c9 (5.4; the 5.3 and 4.19 stable updates of October 2019), whose message measures its cost with ebizzy -M.
            Design.of("pvqspinlock.waitEarly", "preempted"),
            // arm64 has always broadcast TLBI ...IS; Takao Indoh's local-TLBI option was not merged.
            Design.of("arm64.flush", "broadcast"),
            // arm64's switch_mm (check_and_switch_context()) does not maintain mm_cpumask.
            Design.of("arm64.mmCpumask", "stale"))),

    // Carried over from 4.19, as checked for 5.10:
    // native.concurrentFlush: flush_tlb_mm_range() flushes locally, then calls flush_tlb_others() and waits: no overlap
    //   (checked in a 5.10.13 tree); the concurrent series is 5.13.
    // nestedFlush: 7a30df49f63a "mm: mmu_gather: remove __tlb_reset_range() for force flush" (5.2).
    // switchMmBarrier: smp_mb() before atomic64_read(&next->context.tlb_gen) when was_lazy (checked in 5.10.13).
    // x86.mmCpumask: cpumask_clear_cpu(cpu, mm_cpumask(real_prev)) in switch_mm_irqs_off() (checked in 5.10.13).
    // kvm.boostUserMode: 52acd22faa1a is 5.13.
    /** v5.2 (2019-07-07): the release kvm-boost's host and guests were measured on, the boost applied on top. */
    V5_2("5.2", V4_19, List.of(
            // native_flush_tlb_others(): on_each_cpu_cond_mask(tlb_is_not_lazy) unless info->freed_tables
            // (64482aafe55f, 145f573b89a6, 4.20).
            Design.of("lazy", "skip"))),

    /** v5.3 (2019-09-15): the guest and host of kvm-sched-yield's measurements. */
    V5_3("5.3", V5_2, List.of(
            // d73eb57b80b9 "KVM: Boost vCPUs that are delivering interrupts": posted 12 July 2019, after 5.2,
            // and pulled with "Second batch of KVM changes for 5.3 merge window" (Paolo Bonzini, July 2019).
            Design.of("kvm.boost", "true"),
            // 715062970f37 (5.3): kvm_guest_init() installs kvm_smp_send_call_func_ipi (checked in 5.10.13, as is
            // pv_ops.mmu.tlb_remove_table = tlb_remove_table with the PV flush).
            Design.of("kvm.pvSchedYield", "true"),
            // cf69482d62d9 "locking/rwsem: Enable readers spinning on writer" (5.3).
            Design.of("rwsem.readerSpin", "true"))),

    /** v5.10 (2020-12-13), the 2020 LTS. */
    V5_10("5.10", V5_3, List.of(
            // b043138246a4 (5.6): xchg(&st->preempted, 0).
            Design.of("kvm.hostClearPreempted", "xchg"),
            // 89340d0935c9 (5.4): Revert "locking/pvqspinlock: Don't wait if vCPU is preempted".
            Design.of("pvqspinlock.waitEarly", "halted"),
            // 266e85a5ec91 (5.4): the kick's yield to the queue head.
            Design.of("kvm.kickYield", "true"))),

    /** v6.1 (2022-12-11), the 2022 LTS. */
    V6_1("6.1", V5_10, List.of(
            // 4ce94eabac16 "x86/mm/tlb: Flush remote and local TLBs concurrently" (tip 2021-03-06, 5.13):
            // native_flush_tlb_multi().
            Design.of("native.concurrentFlush", "true"),
            // 52acd22faa1a "KVM: Boost vCPU candidate in user mode which is delivering interrupt" (5.13).
            Design.of("kvm.boostUserMode", "true"),
            // "KVM: x86: do not set st->preempted when going back to user space" (2022; its release not verified).
            Design.of("kvm.preemptedOnHalt", "false"),
            // 9ee83635d872 (5.17).
            Design.of("kvm.schedYieldSkipsIdle", "true"),
            // 617f3ef95177 "locking/rwsem: Remove reader optimistic spinning" (5.12).
            Design.of("rwsem.readerSpin", "false"))),

    // Carried over from 6.1, and why 6.13 still has it:
    // shouldFlushTlb: should_flush_tlb() checks loaded_mm only from 6db2526c1d69 ("Only trim the mm_cpumask once a
    //   second"), of the same series as 209954cbc7d0 below.
    // x86.mmCpumask: 209954cbc7d0 "x86/mm/tlb: Update mm_cpumask lazily" went into tip on 2024-11-19, inside the 6.13 merge
    //   window, and reached Linus's tree with the 6.14 merge window (after v6.13 of 2025-01-19).
    /** v6.13 (2025-01-19): the last release before Rik van Riel's lazy mm_cpumask. */
    V6_13("6.13", V6_1, List.of(
            // 147f3efaa241 "sched/fair: Implement an EEVDF-like scheduling policy" (6.6).
            Design.of("host.scheduler", "eevdf"),
            // Per-VMA locks (5e31275cc997 and "x86/mm: try VMA lock-based page fault handling first", 6.4): a
            // page fault takes its VMA's lock and no longer waits on mmap_lock.
            Design.of("mmapLock", "vma"),
            // 9cecde80aae0 "mm: increase folio batch size" (Matthew Wilcox, in the 6.9-rc2 shortlog): PAGEVEC_SIZE
            // 15 -> 31, after 99fbb6bfc16f made folios_put() the basis of release_pages().
            Design.of("pagevec", "31"))),

    /** v6.15 (2025-05-25): INVLPGB, RCU table freeing on every x86 kernel, the LOADED_MM_SWITCHING fix. */
    V6_15("6.15", V6_13, List.of(
            // MMU_GATHER_RCU_TABLE_FREE unconditional on x86 (Rik van Riel's INVLPGB series: a broadcast
            // flush does not interrupt gup_fast).
            Design.tableFree("rcu"),
            // fea4e317f9e7 "x86/mm: Eliminate window where TLB flushes may be inadvertently skipped"
            // (CVE-2025-37964): should_flush_tlb() flushes a CPU in LOADED_MM_SWITCHING.
            Design.of("shouldFlushTlb", "switching"),
            // 209954cbc7d0 (lazy mm_cpumask) and 6db2526c1d69 (trim at most once a second), 6.14.
            Design.of("x86.mmCpumask", "lazy-trim"),
            // Rik van Riel, "mm: remove unnecessary calls to lru_add_drain" (posted 2024-12-19, taken into the mm tree
            // with the 6.14 batch; its release not verified against a tagged tree).
            Design.of("lruAddDrain", "false")));

    /** The knob that chooses a release; {@code none} (the default) sets nothing. */
    public static final String KNOB = "kernel";
    public static final String NONE = "none";

    /** Design knobs no release sets, each with the reason (docs/scenarios.md, "Kernel presets"). */
    public static final Map<String, String> EXCLUDED = excluded();

    private final String version;
    private final KernelRelease previous;
    private final List<Design> changes;

    /** {@code version} sets what {@code previous} did (every knob, for the first), but for {@code changes}. */
    KernelRelease(String version, KernelRelease previous, List<Design> changes) {
        this.version = version;
        this.previous = previous;
        this.changes = changes;
    }

    /** The release's name as the knob takes it, e.g. {@code 6.15}. */
    public String version() {
        return version;
    }

    /** The release's value of every knob it sets, for {@code backend}; knob names in table order. */
    public Map<String, String> settings(String backend) {
        Map<String, String> m = previous == null ? new LinkedHashMap<>() : previous.settings(backend);
        for (Design d : changes) {
            m.put(d.knob(), d.value(backend));
        }
        return m;
    }

    /** The release named {@code version}, or null. */
    public static KernelRelease of(String version) {
        for (KernelRelease r : values()) {
            if (r.version.equals(version)) {
                return r;
            }
        }
        return null;
    }

    /** The knob's allowed values: {@code none} and each release. */
    static String[] choices() {
        KernelRelease[] rs = values();
        String[] out = new String[rs.length + 1];
        out[0] = NONE;
        for (int i = 0; i < rs.length; i++) {
            out[i + 1] = rs[i].version;
        }
        return out;
    }

    /**
     * {@code settings} with the release its {@code kernel} knob names filled in beneath them: each knob
     * of {@code specs} the release sets and {@code settings} does not. Without a release (or with a
     * value that is none, which the knob's own check then refuses) the settings come back unchanged.
     * Only {@link KnobRegistry#resolve} applies it, with the specs of the guest's backend.
     */
    static Map<String, String> withPreset(String backend, Collection<KnobSpec> specs, Map<String, String> settings) {
        String v = settings.get(KNOB);
        KernelRelease r = v == null ? null : of(v.strip());
        if (r == null) {
            return settings;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (var e : r.settings(backend).entrySet()) {
            if (specs.stream().anyMatch(s -> s.name().equals(e.getKey()))) {
                out.put(e.getKey(), e.getValue());
            }
        }
        out.putAll(settings);
        return out;
    }

    private static Map<String, String> excluded() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("inject", "a planted bug for mutation tests, no release's design");
        m.put("memoryModel", "the CPU's memory ordering (x86-TSO, arm64), not the kernel's");
        m.put("x86.x2apic", "the firmware's or the command line's choice (x2apic_phys), not the release's");
        m.put("smt.flushDropsSibling", "what the hardware does with a sibling's PCIDs, not the kernel");
        m.put("rcu", "CONFIG_PREEMPT_RCU is kernel configuration, available in every release");
        m.put("pageLocks", "a switch of the model's fidelity: every release takes the zone and LRU locks");
        m.put("zeroPage", "a switch of the model's fidelity: every release maps the zero page on a read fault");
        m.put("virtSpinLock", "the guest's configuration, not the release's: virt_spin_lock() is the fallback of every release here "
                + "on a hypervisor, disabled only by nopvspin or KVM_HINTS_REALTIME");
        m.put("kvm.pvSpinlock", "a guest feature (KVM_FEATURE_PV_UNHALT) in every release here since 3.12; the guest goes "
                + "without it where the host does not offer it (QEMU's kvm-pv-unhalt), with KVM_HINTS_REALTIME or nopvspin");
        m.put("tableBatch", "whether the batch page allocation fails is memory pressure, not design; every release here has "
                + "d86564a2f085, so under failure it is fail-invalidate");
        m.put("kvm.ple", "a host module parameter (kvm_intel.ple_gap), on by default in every release here");
        m.put("kvm.haltPoll", "a host module parameter (kvm.halt_poll_ns), on by default in every release here");
        m.put("hyperv.ex", "Hyper-V's recommendation (HV_X64_EX_PROCESSOR_MASKS_RECOMMENDED); the guest uses EX masks "
                + "when recommended in every release here (628f54cc6451, 4.14)");
        m.put("arm64.kpti", "depends on the CPU (Meltdown, E0PD) and on KASLR as well as on the release");
        m.put("pvm.remoteFlush", "PVM is not in any mainline release");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** One knob's value in a release; {@code tableFree} depends on the backend. */
    private record Design(String knob, String value, Map<String, String> byBackend) {
        static Design of(String knob, String value) {
            return new Design(knob, value, Map.of());
        }

        /**
         * tableFree: {@code bareMetal} for native and the other IPI-free bare-metal backends;
         * rcu where pv_ops.mmu.tlb_remove_table is tlb_remove_table (Xen PV, Hyper-V, KVM's PV
         * flush: 48a8b97cfd80), on arm64 (MMU_GATHER_RCU_TABLE_FREE), and on PVM, whose flush is a
         * hypercall.
         */
        static Design tableFree(String bareMetal) {
            return new Design("tableFree", bareMetal,
                    Map.of("xen-pv", "rcu", "hyperv", "rcu", "kvm", "rcu", "arm64", "rcu", "pvm", "rcu"));
        }

        String value(String backend) {
            return byBackend.getOrDefault(backend, value);
        }
    }
}

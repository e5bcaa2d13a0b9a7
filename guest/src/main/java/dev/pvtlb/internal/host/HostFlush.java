package dev.pvtlb.internal.host;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;

/**
 * A TLB flush the hypervisor performs on a guest's behalf (Xen's MMUEXT_TLB_FLUSH_MULTI /
 * MMUEXT_INVLPG_MULTI, Hyper-V's HvFlushVirtualAddressSpace / List, PVM's PVM_HC_FLUSH_TLB_MULTI). The guest takes no
 * interrupt: the host IPIs the pCPUs running the named vCPUs and flushes them whatever their
 * IRQ state; a vCPU not running is marked and flushed before it next runs. The hypercall
 * returns when every running target was flushed.
 */
public final class HostFlush implements HypervisorFlush, VcpuEvents {
    private final Kernel guest;
    private final HostModel host;
    private final boolean[] pending;

    public HostFlush(Kernel guest) {
        this.guest = guest;
        this.pending = new boolean[guest.cpus().length];
        this.host = HostModel.attach(guest, this, null);
    }

    /** The host model this flush runs on: which vCPUs run (wired into the guest at attach). */
    @Override
    public VcpuHost vcpuHost() {
        return host;
    }

    /**
     * One flush hypercall from {@code cpu} naming the CPUs of {@code mask}: the hypercall itself
     * ({@code hypercall.ns}, counted) and the host's flush of each target; nothing for an empty mask.
     */
    @Override
    public long flushByHypercall(Cpu cpu, CpuMask mask, FlushTlbInfo info, Scope scope, long flushCost) {
        if (mask.isEmpty()) {
            return 0;
        }
        CpuMask targets = new CpuMask(mask.nrCpus());
        targets.copyFrom(mask);
        guest.vmstat().inc(Counter.HYPERCALLS);
        return guest.costs().hypercallNs + flush(cpu, targets, info, scope, flushCost);
    }

    /**
     * The host side of one flush hypercall from {@code cpu} for {@code targets}: returns its
     * cost to the caller beyond the hypercall itself; sets {@code info.localFlushed} when the
     * caller was among the targets.
     */
    @Override
    public long flush(Cpu cpu, CpuMask targets, FlushTlbInfo info, Scope scope) {
        Costs c = guest.costs();
        return flush(cpu, targets, info, scope, scope == Scope.PAGES ? info.pages() * c.invlpgNs : c.fullFlushNs);
    }

    /**
     * As {@link #flush(Cpu, CpuMask, FlushTlbInfo, Scope)}, with {@code flushCost} the host's
     * work on each target (a hypervisor whose flush is more than the hardware invalidation, such as
     * PVM's shadow-root walk per cached root, prices it itself).
     */
    public long flush(Cpu cpu, CpuMask targets, FlushTlbInfo info, Scope scope, long flushCost) {
        Costs c = guest.costs();
        long cost = 0;
        int remote = 0;
        for (int t = targets.next(0); t >= 0; t = targets.next(t + 1)) {
            KernelCpu target = guest.cpu(t);
            if (t == cpu.id()) {
                apply(target, info, scope);
                cost += flushCost;
                info.localFlushed = true;
                guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
            } else if (host.vcpu(guest.cpu(t)).executing()) {
                apply(target, info, scope);
                remote++;
                guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
                guest.vmstat().inc(Counter.VMEXITS);
                long now = guest.engine().now();
                guest.cpuTime().flow("flush hypercall", cpu.id(), now, t, now);
                target.injectHostWork(c.vmexitNs + flushCost, TimeCategory.STOLEN, "host_tlb_flush");
            } else if (!pending[t] && guest.knobs().bug != InjectedBug.HOST_DROPS_DEFERRED_FLUSH) {
                pending[t] = true;
                guest.vmstat().inc(Counter.DEFERRED_FLUSHES);
            }
        }
        if (remote > 0) {
            // The host IPIs each pCPU and waits for the slowest to have flushed.
            cost += kickAndWait(remote) + flushCost;
        }
        return cost;
    }

    private static void apply(KernelCpu target, FlushTlbInfo info, Scope scope) {
        switch (scope) {
            case ALL -> target.flushAllAsids();
            case MM -> {
                int slot = target.asidSlotOf(info.mm);
                if (slot >= 0) {
                    target.flushAsid(slot, info.mm);
                }
            }
            case PAGES -> {
                int slot = target.asidSlotOf(info.mm);
                if (slot >= 0) {
                    for (long va = info.start; va < info.end; va += 1L << info.strideShift) {
                        target.invlpgAsid(slot, info.mm, va);
                    }
                }
            }
        }
    }

    /**
     * Xen's guard when a guest page-table page becomes writable again (_get_page_type() changing
     * the page's type, on xen_release_ptpage()'s make_lowmem_page_readwrite()): flush_tlb_mask()
     * of the domain's dirty CPUs, so no vCPU can still walk the frame through a cached entry once
     * the guest may write it. Every vCPU is flushed (Xen's tlbflush_filter() would spare the ones
     * that flushed since the page was last a table: a superset, for safety the same); running
     * ones at once, the others at their next entry. Departure: its cost (the IPIs to the pCPUs,
     * the flushes) is not charged, and it counts as no hypervisor flush.
     */
    @Override
    public void pageTypeChangeFlush() {
        for (KernelCpu target : guest.cpus()) {
            if (host.vcpu(target).executing()) {
                target.flushAllAsids();
            } else {
                pending[target.id] = true;
            }
        }
    }

    /**
     * kvm_flush_remote_tlbs(kvm) (virt/kvm/kvm_main.c): KVM_REQ_TLB_FLUSH to every vCPU of the VM
     * through kvm_make_all_cpus_request(), which kicks the vCPUs in guest mode and waits for them
     * to have exited (the request has KVM_REQUEST_WAIT); each flushes all its translations
     * (kvm_vcpu_flush_tlb_all()) before it enters again, a vCPU not running at its next entry.
     * {@code caller} services the request itself before it returns to the guest. What a flushed
     * vCPU keeps is {@link dev.pvtlb.internal.kernel.LocalTlb#flushBackedTranslations()}'s: under shadow paging a refill
     * brings back what the shadow tables still hold. Returns the caller's cost: its own flush, and
     * for kicked vCPUs the IPIs and the wait for the exits. {@code dropTranslations} is false when a
     * flush of the same step already left each vCPU what this one would (a sync flushes once per
     * entry, and what is kept depends only on the page tables, which do not change within the step).
     */
    @Override
    public long flushRemoteTlbs(Cpu caller, boolean dropTranslations) {
        Costs c = guest.costs();
        int kicked = 0;
        long now = guest.engine().now();
        for (KernelCpu target : guest.cpus()) {
            if (dropTranslations) {
                target.localTlb().flushBackedTranslations();
            }
            if (target == caller) {
                guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
            } else if (host.vcpu(target).executing()) {
                kicked++;
                guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
                guest.vmstat().inc(Counter.VMEXITS);
                guest.cpuTime().flow("kvm_flush_remote_tlbs", caller.id(), now, target.id, now);
                target.injectHostWork(c.vmexitNs + c.fullFlushNs, TimeCategory.STOLEN, "kvm_flush_remote_tlbs");
            } else {
                // Descheduled, it refills nothing before its next entry: flushed now, for nothing.
                guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
            }
        }
        return c.fullFlushNs + (kicked > 0 ? kickAndWait(kicked) : 0);
    }

    /** The host IPIs the pCPUs of {@code kicked} running vCPUs and waits for their exits. */
    private long kickAndWait(int kicked) {
        Costs c = guest.costs();
        long latency = c.ipiLatencyNs(guest.engine(), ChoicePoint.HOST_LATENCY);
        return kicked * c.ipiSendNs + latency + c.vmexitNs;
    }

    /** A flush left for a vCPU that was not running is done right before guest code runs again. */
    @Override
    public void entryEnd(Cpu vcpu) {
        int id = vcpu.id();
        if (pending[id]) {
            pending[id] = false;
            vcpu.flushAllAsids();
            guest.vmstat().inc(Counter.HYPERVISOR_FLUSHES);
        }
    }
}

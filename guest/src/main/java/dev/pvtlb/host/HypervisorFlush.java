package dev.pvtlb.host;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.VcpuHost;

/**
 * A TLB flush the hypervisor performs on a guest's behalf (Xen's MMUEXT_TLB_FLUSH_MULTI /
 * MMUEXT_INVLPG_MULTI, Hyper-V's HvFlushVirtualAddressSpace / List, PVM's PVM_HC_FLUSH_TLB_MULTI).
 * The guest takes no interrupt: the host IPIs the pCPUs running the named vCPUs and flushes them
 * whatever their IRQ state; a vCPU not running is marked and flushed before it next runs.
 */
public interface HypervisorFlush {
    /** What the hypervisor invalidates on each target. */
    enum Scope {
        /** Every non-global translation of the vCPU (Xen's TLB_FLUSH_MULTI). */
        ALL,
        /** The address space of {@code info.mm} (Hyper-V address-space flush). */
        MM,
        /** The pages of {@code info} in the address space of {@code info.mm}. */
        PAGES
    }

    /** The host as the guest's kernel sees it (halts, kicks, spins): what the backend's attachment hands over. */
    VcpuHost vcpuHost();

    /**
     * One flush hypercall from {@code cpu} naming the CPUs of {@code mask}: the hypercall itself
     * ({@code hypercall.ns}, counted) and the host's flush of each target, {@code flushCostNs} each;
     * nothing for an empty mask. Returns the caller's cost.
     */
    long flushByHypercall(Cpu cpu, CpuMask mask, FlushTlbInfo info, Scope scope, long flushCostNs);

    /** The host's flush of {@code targets} for {@code cpu}, priced as the profile's INVLPG or full flush. Returns the caller's cost. */
    long flush(Cpu cpu, CpuMask targets, FlushTlbInfo info, Scope scope);

    /**
     * A page that was a page table becomes writable again (Xen's page-type change, after
     * xen_release_ptpage()): every vCPU that may cache it is flushed, running ones now, the others
     * at their next entry.
     */
    void pageTypeChangeFlush();

    /**
     * kvm_flush_remote_tlbs(kvm): every vCPU of the VM flushes all its translations, running ones
     * kicked and waited for; {@code dropTranslations} false when a flush of the same step already
     * left each vCPU what this one would. Returns the caller's cost.
     */
    long flushRemoteTlbs(Cpu caller, boolean dropTranslations);
}

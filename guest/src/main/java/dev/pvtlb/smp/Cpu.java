package dev.pvtlb.smp;

import dev.pvtlb.stats.TimeCategory;

/**
 * One (virtual) CPU of the guest, as a backend sees it: its place in the topology, its
 * interrupt and host state, the address space it has loaded, the TLB maintenance instructions
 * it can execute and the stack of kernel paths it runs. The model's executor behind it is
 * internal.
 */
public interface Cpu {
    /** The CPU's number (its index in the guest's CPUs). */
    int id();

    /** The socket it sits on. */
    int socket();

    /** Its core within the socket. */
    int core();

    /** Its hardware thread within the core. */
    int thread();

    /** Whether interrupts are disabled (local_irq_disable, possibly nested). */
    boolean irqsDisabled();

    /** Starts {@code path} on this CPU: it runs next, then returns to the caller. */
    void call(KernelPath path);

    /** Ends the path on top of this CPU's stack. */
    void ret();

    /** Makes a blocked CPU run again now (the waited-for condition may hold). */
    void wake();

    /** Whether the host runs this vCPU now (always on bare metal). */
    boolean vcpuRunning();

    /**
     * per_cpu(cpu_tlbstate_shared.is_lazy, cpu) as another CPU reads it: the CPU runs a kernel
     * thread or idles with a user mm still loaded (lazy TLB mode).
     */
    boolean isLazy();

    /** idle_cpu(): no task runs on it, only its idle loop. */
    boolean idle();

    /** Whether the CPU is online. */
    boolean online();

    /** The address space loaded in CR3 ({@code cpu_tlbstate.loaded_mm}). */
    MmHandle loadedMm();

    /** flush_tlb_one_user(va): INVLPG in the current PCID. */
    void invlpg(long va);

    /** flush_tlb_local(): drop every non-global translation of the current PCID. */
    void flushTlbLocal();

    /** Drops every non-global translation of this CPU, all ASIDs (a flush done from outside the guest). */
    void flushAllAsids();

    /** The ASID slot caching {@code mm}'s context on this CPU, or -1. */
    int asidSlotOf(MmHandle mm);

    /** Drops the translations cached under a dynamic ASID slot (a CR3 write without NOFLUSH). */
    void flushAsid(int asid, MmHandle mm);

    /** Invalidates one page of {@code mm} cached under ASID slot {@code asid}, here and in a TLB shared with SMT siblings. */
    void invlpgAsid(int asid, MmHandle mm, long va);

    /**
     * Charges {@code ns} of someone else's work to this CPU at its next step boundary, whatever
     * its IRQ state (a host flush on another vCPU's behalf). A vCPU that is not running pays nothing.
     */
    void injectHostWork(long ns, TimeCategory category, String name);
}

package dev.pvtlb.smp;


/**
 * An address space ({@code struct mm_struct}) as a flush sees it: which one it is, its
 * generation of page-table changes and the CPUs that may cache it. The guest's own mm
 * implements it; {@code FlushTlbInfo.mm} is one.
 */
public interface MmHandle {
    /** A small id, stable for the run (init_mm is 0). */
    int id();

    /** {@code mm->context.ctx_id}: never reused, what a CPU's ASID slot remembers. */
    long ctxId();

    /** {@code mm->context.tlb_gen}: bumped by every change a flush must publish. */
    long tlbGen();

    /** {@code mm_cpumask(mm)}: the CPUs that may hold translations of it. */
    CpuMask cpumask();

    /** Whether this is init_mm, the kernel's own address space. */
    boolean isInitMm();
}

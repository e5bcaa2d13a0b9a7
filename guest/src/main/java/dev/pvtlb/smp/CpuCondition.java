package dev.pvtlb.smp;

/** {@code smp_cond_func_t}: decides per target CPU whether a cross-CPU call is needed (e.g. should_flush_tlb). */
@FunctionalInterface
public interface CpuCondition {
    boolean test(Cpu cpu);
}

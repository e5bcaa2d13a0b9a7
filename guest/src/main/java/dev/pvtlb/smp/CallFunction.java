package dev.pvtlb.smp;

/** The function a cross-CPU call runs on its target ({@code smp_call_func_t}); returns its cost in ns. */
@FunctionalInterface
public interface CallFunction {
    long run(Cpu target);
}

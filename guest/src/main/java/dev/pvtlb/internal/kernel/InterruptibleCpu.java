package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;

/**
 * What an interrupt arriving at a CPU acts on (the x86 interrupt entry, common_interrupt()/
 * sysvec_*: the handler runs on top of the interrupted context, and an interrupt ends a HLT):
 * the CPU's number, whether it is halted or blocked, its wake-up, and the top of its stack of
 * kernel paths. {@link KernelCpu} is one; {@link CpuInterrupts} sees it through this, so the
 * interrupt state does not name the CPU that holds it.
 */
interface InterruptibleCpu {
    int id();

    /** Halted in its idle loop (HLT). */
    boolean isHalted();

    /** Halted, or busy-waiting until woken. */
    boolean isBlocked();

    /** Makes a blocked CPU run again. */
    void wake();

    /** Starts {@code path} on the CPU, on top of what it was doing. */
    void call(KernelPath path);

    /** The path on top of its stack. */
    KernelPath top();
}

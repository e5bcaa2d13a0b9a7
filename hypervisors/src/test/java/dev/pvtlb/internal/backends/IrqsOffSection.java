package dev.pvtlb.internal.backends;

import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.smp.KernelPath;

/**
 * A kernel section run with IRQs disabled for {@code lengthNs} (as gup_fast or any
 * local_irq_save() region): it spins in 500 ns steps and records when IRQs came back on.
 */
final class IrqsOffSection extends InternalPath {
    private final long lengthNs;
    private long start;
    long enabledAt = -1;

    IrqsOffSection(long lengthNs) {
        this.lengthNs = lengthNs;
    }

    @Override
    public long step(KernelCpu cpu) {
        long now = cpu.kernel().engine().now();
        if (pc == 0) {
            cpu.interrupts().disable();
            start = now;
            pc = 1;
            return 100;
        }
        if (now < start + lengthNs) {
            return 500;
        }
        cpu.interrupts().enable();
        enabledAt = now;
        cpu.ret();
        return 100;
    }

    @Override
    public String name() {
        return "local_irq_save section";
    }
}

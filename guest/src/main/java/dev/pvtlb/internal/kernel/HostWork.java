package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.TimeCategory;

/**
 * Time a running vCPU loses to work done on its pCPU by someone else: the hypervisor
 * flushing it on another vCPU's behalf (a host IPI and VM exit), or the hardware processing
 * another CPU's broadcast invalidation. It runs regardless of the guest's IRQ state.
 */
final class HostWork extends KernelPath {
    private final long ns;
    private final TimeCategory category;
    private final String name;

    HostWork(long ns, TimeCategory category, String name) {
        this.ns = ns;
        this.category = category;
        this.name = name;
    }

    @Override
    public long step(Cpu cpu) {
        cpu.ret();
        return ns;
    }

    @Override
    public TimeCategory category() {
        return category;
    }

    @Override
    public String name() {
        return name;
    }
}

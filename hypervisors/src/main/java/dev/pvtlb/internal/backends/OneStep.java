package dev.pvtlb.internal.backends;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;

/**
 * A backend operation that is one atomic step on the calling CPU (a hypercall, a broadcast
 * instruction sequence): its effects happen at the step, its cost is the step's length.
 * The body may push further paths (a fallback to native IPIs); they run after it.
 */
final class OneStep extends KernelPath {
    interface Body {
        long run(Cpu cpu);
    }

    private final String name;
    private final Body body;

    OneStep(String name, Body body) {
        this.name = name;
        this.body = body;
    }

    @Override
    public long step(Cpu cpu) {
        cpu.ret();
        return body.run(cpu);
    }

    @Override
    public String name() {
        return name;
    }
}

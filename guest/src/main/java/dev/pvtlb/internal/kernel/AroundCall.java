package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.TimeCategory;

/**
 * A kernel path run inside another that does something when it returns (drop a lock, time the
 * call): it takes the inner path's name and time category, so traces and CPU time see the call.
 */
public abstract class AroundCall extends InternalPath {
    private final KernelPath inner;

    protected AroundCall(KernelPath inner) {
        this.inner = inner;
    }

    @Override
    public final long step(KernelCpu cpu) {
        if (pc == 0) {
            pc = 1;
            cpu.call(inner);
            return 0;
        }
        cpu.ret();
        return returned(cpu);
    }

    /** The inner path has returned; what that costs here. */
    protected abstract long returned(KernelCpu cpu);

    @Override
    public TimeCategory category() {
        return inner.category();
    }

    @Override
    public String name() {
        return inner.name();
    }
}

package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.smp.KernelPath;
import java.util.function.ToLongFunction;

/**
 * Kernel work that touches no state another CPU can see (sendmsg/recvmsg copying a message,
 * fork's copy of the task struct): one step whose cost the caller takes from the profile.
 */
public final class KernelWork extends InternalPath {
    private final String name;
    private final ToLongFunction<dev.pvtlb.internal.profile.Costs> cost;

    public KernelWork(String name, ToLongFunction<dev.pvtlb.internal.profile.Costs> cost) {
        this.name = name;
        this.cost = cost;
    }

    @Override
    public long step(KernelCpu cpu) {
        cpu.ret();
        return cost.applyAsLong(cpu.kernel().costs());
    }

    @Override
    public String name() {
        return name;
    }
}

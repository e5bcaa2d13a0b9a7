package dev.pvtlb.internal.backends;

import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.Cpu;

/**
 * An invalidation that other CPUs' hardware performs and the initiator waits for: arm64's
 * TLBI ...IS then DSB ISH (__flush_tlb_range()), Intel RAR's request then the wait for every
 * target's acknowledgement (smp_call_rar_many()). The request is issued at one step; it is known
 * done only when the wait ends. Until then a target may still hold and use the old translation
 * and walk through its paging-structure caches: the architecture promises completion at the DSB
 * (Arm ARM, "completion of TLB maintenance instructions"), the RAR initiator at the last
 * acknowledgement, nothing earlier. The model takes the latest moment the hardware allows: the
 * targets' entries go when the wait ends, then the caller continues.
 */
final class AwaitedInvalidation extends KernelPath {
    /** The two halves of one request. */
    interface Request {
        /** Issues the request on {@code cpu}; returns how long the initiator waits for it. */
        long issue(Cpu cpu);

        /** The wait has ended: every target has done the invalidation. */
        void complete(Cpu cpu);
    }

    private final String name;
    private final Request request;

    AwaitedInvalidation(String name, Request request) {
        this.name = name;
        this.request = request;
    }

    @Override
    public long step(Cpu cpu) {
        if (pc == 0) {
            pc = 1;
            return request.issue(cpu);
        }
        request.complete(cpu);
        cpu.ret();
        return 0;
    }

    @Override
    public String name() {
        return name;
    }
}

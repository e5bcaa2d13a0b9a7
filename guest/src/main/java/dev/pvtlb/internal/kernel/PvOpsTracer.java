package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.Cpu;
import java.util.StringJoiner;
import java.util.function.BiConsumer;

/** Writes one {@code pv_ops} event per op call into the guest's tracepoint stream. */
final class PvOpsTracer implements BiConsumer<String, Object[]> {
    private final Kernel guest;
    private final String backend;

    PvOpsTracer(Kernel guest, String backend) {
        this.guest = guest;
        this.backend = backend;
    }

    /** One call of {@code method} with {@code args}. */
    @Override
    public void accept(String method, Object[] args) {
        int cpu = -1;
        StringJoiner detail = new StringJoiner(" ");
        for (Object a : args) {
            if (a instanceof Cpu c) {
                cpu = c.id();
            } else if (a instanceof FlushTlbInfo f) {
                detail.add(f.toString());
            } else if (a instanceof MmuGather g) {
                detail.add("tlb(" + g.mm() + ")");
            } else if (a instanceof Integer pfn) {
                detail.add(String.format("table 0x%x", pfn));
            } else if (a != null) {
                detail.add(String.valueOf(a)); // CpuMask and other values print deterministically
            }
        }
        String args0 = detail.toString();
        guest.trace().event(guest.engine().now(), cpu, "pv_ops", backend + "." + method + ":" + (args0.isEmpty() ? "" : " " + args0));
    }
}

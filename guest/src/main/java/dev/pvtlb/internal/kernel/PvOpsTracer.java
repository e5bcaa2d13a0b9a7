package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.stats.TraceStream;
import java.util.StringJoiner;
import java.util.function.BiConsumer;

/**
 * Writes one {@code pv_ops} event per op call into the guest's tracepoint stream. An argument
 * prints as its CPU's number, or as itself (FlushTlbInfo, CpuMask, the mmu_gather: each prints
 * deterministically), or as a page-table frame.
 */
final class PvOpsTracer implements BiConsumer<String, Object[]> {
    private final TraceStream trace;
    private final Engine engine;
    private final String backend;

    PvOpsTracer(TraceStream trace, Engine engine, String backend) {
        this.trace = trace;
        this.engine = engine;
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
            } else if (a instanceof Integer pfn) {
                detail.add(String.format("table 0x%x", pfn));
            } else if (a != null) {
                detail.add(String.valueOf(a)); // CpuMask, MmuGather and other values print deterministically
            }
        }
        String args0 = detail.toString();
        trace.event(engine.now(), cpu, "pv_ops", backend + "." + method + ":" + (args0.isEmpty() ? "" : " " + args0));
    }
}

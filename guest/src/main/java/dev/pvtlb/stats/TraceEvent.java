package dev.pvtlb.stats;

/**
 * One tracepoint hit. {@code tlb:tlb_flush} events carry a {@link TlbFlushReason} and the
 * number of pages ({@link #FLUSH_ALL} for a full flush); other events carry a name and a
 * free-form detail (pv_ops calls, hypercalls).
 */
public record TraceEvent(long time, int cpu, String name, TlbFlushReason reason, long pages, String detail) {
    /** TLB_FLUSH_ALL as the tracepoint prints it. */
    public static final long FLUSH_ALL = -1;

    /** The event without time and CPU, as a step log line shows it. */
    public String describe() {
        if (reason != null) {
            return String.format("tlb:tlb_flush reason:%s pages:%d", reason, pages);
        }
        return name + ": " + detail;
    }

    @Override
    public String toString() {
        if (reason != null) {
            return String.format("%12d cpu%-3d tlb:tlb_flush reason:%s pages:%d", time, cpu, reason, pages);
        }
        return String.format("%12d cpu%-3d %s %s", time, cpu, name, detail);
    }
}

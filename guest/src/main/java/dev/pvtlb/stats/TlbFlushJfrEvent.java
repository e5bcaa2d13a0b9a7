package dev.pvtlb.stats;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A model tracepoint as a JDK Flight Recorder event, so that a flush storm can be looked at in
 * JDK Mission Control next to the JVM's own events. The virtual time is a field: JFR's own
 * timestamp is the host's wall clock.
 */
@Name("dev.pvtlb.Tracepoint")
@Label("pvtlb tracepoint")
@Category({"pvtlb", "Guest"})
@Description("tlb:tlb_flush and the model's other tracepoints (pv_ops calls, hazards)")
@StackTrace(false)
final class TlbFlushJfrEvent extends Event {
    @Label("Virtual time (ns)")
    long virtualTimeNs;

    @Label("CPU")
    int cpu;

    @Label("Tracepoint")
    String name;

    @Label("Reason")
    String reason;

    @Label("Pages")
    long pages;

    @Label("Detail")
    String detail;
}

package dev.pvtlb.report;

import java.util.Map;

/**
 * A {@link Timeline} as Trace Event Format JSON, the format Perfetto and chrome://tracing open:
 * one process (the guest), one thread per CPU named by a metadata event; complete events
 * ({@code X}) for what a CPU did, flow events ({@code s} at the sender, {@code f} at the target,
 * one id per pair) for IPIs and hypercalls, instants ({@code i}) for tracepoints, a hazard's
 * explanation in its args. Times are microseconds with the nanoseconds as three decimals, one
 * event a line, in the order recorded: one scenario and seed give one file, byte for byte.
 */
public final class TimelineJson {
    private TimelineJson() {}

    /** The guest's process id in the file (a single guest). */
    static final int PID = 1;

    /** {@code t} as a Trace Event Format object; {@code about} goes to its {@code otherData} (scenario, seed, ...). */
    public static String write(Timeline t, Map<String, String> about) {
        StringBuilder b = new StringBuilder(64 * (t.slices().size() + 2 * t.flows().size() + t.marks().size() + 2 * t.cpus() + 2));
        b.append("{\"displayTimeUnit\":\"ns\",\"otherData\":{");
        int n = 0;
        for (var e : about.entrySet()) {
            b.append(n++ == 0 ? "" : ",").append(Json.quote(e.getKey())).append(':').append(Json.quote(e.getValue()));
        }
        if (t.truncatedAtNs() >= 0) {
            b.append(n == 0 ? "" : ",").append("\"truncated_at_ns\":\"").append(t.truncatedAtNs()).append('"');
        }
        b.append("},\"traceEvents\":[\n");
        Events ev = new Events(b);
        ev.line("{\"ph\":\"M\",\"pid\":" + PID + ",\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"guest\"}}");
        for (int c = 0; c < t.cpus(); c++) {
            ev.line("{\"ph\":\"M\",\"pid\":" + PID + ",\"tid\":" + c + ",\"name\":\"thread_name\",\"args\":{\"name\":\"cpu" + c + "\"}}");
            ev.line("{\"ph\":\"M\",\"pid\":" + PID + ",\"tid\":" + c + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + c + "}}");
        }
        for (Timeline.Slice s : t.slices()) {
            ev.line("{\"ph\":\"X\",\"pid\":" + PID + ",\"tid\":" + s.cpu() + ",\"cat\":\"cpu\",\"name\":" + Json.quote(s.name())
                    + ",\"ts\":" + us(s.startNs()) + ",\"dur\":" + us(s.endNs() - s.startNs()) + "}");
        }
        int id = 0;
        for (Timeline.Flow f : t.flows()) {
            id++;
            String common = ",\"pid\":" + PID + ",\"cat\":\"flow\",\"name\":" + Json.quote(f.kind()) + ",\"id\":" + id;
            ev.line("{\"ph\":\"s\"" + common + ",\"tid\":" + f.from() + ",\"ts\":" + us(f.sentNs()) + "}");
            ev.line("{\"ph\":\"f\",\"bp\":\"e\"" + common + ",\"tid\":" + f.to() + ",\"ts\":" + us(f.arrivalNs()) + "}");
        }
        for (Timeline.Mark m : t.marks()) {
            String arg = m.name().equals("hazard") ? "explanation" : "detail";
            ev.line("{\"ph\":\"i\",\"s\":\"t\",\"pid\":" + PID + ",\"tid\":" + m.cpu() + ",\"cat\":\"tracepoint\",\"name\":"
                    + Json.quote(m.name()) + ",\"ts\":" + us(m.timeNs()) + ",\"args\":{\"" + arg + "\":" + Json.quote(m.detail()) + "}}");
        }
        return b.append("\n]}\n").toString();
    }

    /** {@code ns} as microseconds, always three decimals (exact: no binary fraction is printed). */
    static String us(long ns) {
        long a = Math.abs(ns);
        long frac = a % 1000;
        return (ns < 0 ? "-" : "") + a / 1000 + (frac < 10 ? ".00" : frac < 100 ? ".0" : ".") + frac;
    }

    /** Writes events one a line, comma-separated. */
    private static final class Events {
        private final StringBuilder b;
        private boolean first = true;

        Events(StringBuilder b) {
            this.b = b;
        }

        void line(String event) {
            if (!first) {
                b.append(",\n");
            }
            first = false;
            b.append(event);
        }
    }
}

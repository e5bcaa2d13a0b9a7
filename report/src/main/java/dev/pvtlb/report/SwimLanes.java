package dev.pvtlb.report;

import dev.pvtlb.stats.TimeCategory;
import java.util.Locale;

/**
 * A {@link Timeline} as inline SVG swim lanes for the HTML reports: one lane per CPU with what it
 * did (a colour per CPU-time category), IPIs and hypercalls as arrows between lanes, and each
 * hazard marked in red where it happened, its explanation as the mark's tooltip. The view is a
 * window of virtual time: {@link #beforeHazard} zooms to the stretch that led to the first hazard.
 */
public final class SwimLanes {
    private SwimLanes() {}

    private static final int W = 960;
    private static final int L = 56;
    private static final int R = 16;
    private static final int T = 34;
    private static final int LANE = 24;
    /** Virtual time shown before a hazard: a shrunk schedule's last few microseconds hold the race. */
    static final long WINDOW_BEFORE_NS = 20_000;

    /** The lanes from {@code WINDOW_BEFORE_NS} before the first hazard to a little after it (the whole timeline without one). */
    public static String beforeHazard(Timeline t, String title) {
        long end = 0;
        for (Timeline.Slice s : t.slices()) {
            end = Math.max(end, s.endNs());
        }
        for (Timeline.Mark m : t.marks()) {
            if (m.name().equals("hazard")) {
                long from = Math.max(0, m.timeNs() - WINDOW_BEFORE_NS);
                return svg(t, from, m.timeNs() + (m.timeNs() - from) / 20 + 1, title);
            }
        }
        return svg(t, 0, Math.max(end, 1), title);
    }

    /** The lanes of {@code t} over virtual time {@code [fromNs, toNs)}. */
    public static String svg(Timeline t, long fromNs, long toNs, String title) {
        int h = T + t.cpus() * LANE + 64;
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "<svg class='swimlanes' xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
                + "viewBox='0 0 %d %d' font-family='sans-serif' role='img'>%n", W, h, W, h));
        b.append("<rect width='100%' height='100%' fill='white'/>\n");
        b.append(String.format("<text x='%d' y='20' font-size='14' font-weight='bold'>%s</text>%n", L, Html.escape(title)));
        for (int c = 0; c < t.cpus(); c++) {
            b.append(String.format(Locale.ROOT, "<text class='lane' x='%d' y='%d' text-anchor='end' font-size='11'>cpu%d</text>%n",
                    L - 6, laneY(c) + 15, c));
        }
        for (Timeline.Slice s : t.slices()) {
            if (s.endNs() <= fromNs || s.startNs() >= toNs) {
                continue;
            }
            double x0 = x(Math.max(s.startNs(), fromNs), fromNs, toNs);
            double x1 = x(Math.min(s.endNs(), toNs), fromNs, toNs);
            b.append(String.format(Locale.ROOT, "<rect class='slice' x='%.1f' y='%d' width='%.1f' height='%d' fill='%s'>"
                    + "<title>cpu%d %s %s..%s us</title></rect>%n", x0, laneY(s.cpu()) + 3, Math.max(0.5, x1 - x0), LANE - 6,
                    color(s.name()), s.cpu(), Html.escape(s.name()), TimelineJson.us(s.startNs()), TimelineJson.us(s.endNs())));
        }
        for (Timeline.Flow f : t.flows()) {
            if (f.arrivalNs() < fromNs || f.sentNs() > toNs) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "<line class='flow' x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='black' "
                    + "stroke-width='1.2' marker-end='url(#arrow)'><title>%s cpu%d -&gt; cpu%d, %s..%s us</title></line>%n",
                    x(Math.max(f.sentNs(), fromNs), fromNs, toNs), laneY(f.from()) + LANE / 2,
                    x(Math.min(f.arrivalNs(), toNs), fromNs, toNs), laneY(f.to()) + LANE / 2, Html.escape(f.kind()), f.from(), f.to(),
                    TimelineJson.us(f.sentNs()), TimelineJson.us(f.arrivalNs())));
        }
        for (Timeline.Mark m : t.marks()) {
            if (!m.name().equals("hazard") || m.timeNs() < fromNs || m.timeNs() > toNs) {
                continue;
            }
            double x = x(m.timeNs(), fromNs, toNs);
            int y = laneY(m.cpu());
            b.append(String.format(Locale.ROOT, "<g class='hazard'><line x1='%.1f' x2='%.1f' y1='%d' y2='%d' stroke='#d00' "
                    + "stroke-width='2'/><path d='M%.1f %d l-6 -9 h12 z' fill='#d00'/><title>%s</title></g>%n", x, x, y, y + LANE,
                    x, y, Html.escape(m.detail())));
        }
        axis(b, fromNs, toNs, T + t.cpus() * LANE);
        b.append("<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='6' markerHeight='6' orient='auto'>"
                + "<path d='M0 0 L10 5 L0 10 z'/></marker></defs>\n");
        legend(b, T + t.cpus() * LANE + 40);
        return b.append("</svg>\n").toString();
    }

    private static void axis(StringBuilder b, long fromNs, long toNs, int y) {
        b.append(String.format("<line x1='%d' x2='%d' y1='%d' y2='%d' stroke='black'/>%n", L, W - R, y, y));
        AxisTicks ticks = AxisTicks.nice(fromNs / 1000.0, toNs / 1000.0, 8);
        for (double us : ticks.values()) {
            long ns = Math.round(us * 1000);
            if (ns < fromNs || ns > toNs) {
                continue;
            }
            double x = x(ns, fromNs, toNs);
            b.append(String.format(Locale.ROOT, "<line x1='%.1f' x2='%.1f' y1='%d' y2='%d' stroke='black'/>"
                    + "<text class='tick' x='%.1f' y='%d' text-anchor='middle' font-size='10'>%s</text>%n", x, x, y, y + 4, x, y + 15,
                    ticks.label(us)));
        }
        b.append(String.format("<text x='%d' y='%d' text-anchor='end' font-size='11'>virtual time (us)</text>%n", W - R, y + 28));
    }

    private static void legend(StringBuilder b, int y) {
        int x = L;
        for (TimeCategory c : TimeCategory.values()) {
            b.append(String.format("<rect x='%d' y='%d' width='10' height='10' fill='%s'/><text x='%d' y='%d' font-size='10'>%s</text>%n",
                    x, y - 9, color(c.key), x + 13, y, c.key));
            x += 13 + 7 * c.key.length() + 12;
        }
    }

    /** One colour per CPU-time category (the same in every report). */
    static String color(String category) {
        return switch (category) {
            case "user" -> "#9ecae1";
            case "kernel" -> "#3182bd";
            case "flush_handler" -> "#e6550d";
            case "ipi_wait" -> "#fdae6b";
            case "lock_spin" -> "#d62728";
            case "switch_mm" -> "#756bb1";
            case "idle" -> "#e5e5e5";
            case "stolen" -> "#636363";
            case "remote_invalidation" -> "#31a354";
            default -> "#bdbdbd";
        };
    }

    private static int laneY(int cpu) {
        return T + cpu * LANE;
    }

    private static double x(long ns, long fromNs, long toNs) {
        return L + (double) (ns - fromNs) / Math.max(1, toNs - fromNs) * (W - L - R);
    }
}

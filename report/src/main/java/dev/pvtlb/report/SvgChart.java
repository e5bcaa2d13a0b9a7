package dev.pvtlb.report;

import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts for every HTML report (compare, demo, sweep): no script, no external resource.
 * A y value that is NaN is a point the series lacks: it is left out of the line.
 */
public final class SvgChart {
    private SvgChart() {}

    /** One line of a chart: a name and y values (with stdev) over the chart's x values. */
    public record Series(String name, double[] y, double[] sd) { }

    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 640;
    private static final int H = 360;
    private static final int L = 80;
    private static final int R = 200;
    private static final int T = 36;
    private static final int B = 50;

    /** Metric against a swept numeric parameter, one line per variant (x on a log2 axis when it spans 8x or more). */
    public static String lineChart(String title, String xLabel, String yLabel, double[] x, List<Series> series) {
        double xmin = min(x);
        double xmax = max(x);
        boolean log = xmin > 0 && xmax / xmin >= 8;
        double ymax = 0;
        double ymin = 0;
        for (Series s : series) {
            for (int i = 0; i < s.y.length; i++) {
                if (!Double.isNaN(s.y[i])) {
                    ymax = Math.max(ymax, s.y[i] + s.sd[i]);
                    ymin = Math.min(ymin, s.y[i] - s.sd[i]);
                }
            }
        }
        AxisTicks ticks = AxisTicks.nice(ymin, ymax, 4);
        ymin = ticks.min();
        ymax = ticks.max();
        StringBuilder b = open(title);
        axes(b, xLabel, yLabel, ticks);
        for (int i = 0; i < x.length; i++) {
            double px = px(x[i], xmin, xmax, log);
            b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                    px, H - B + 16, Html.escape(Figures.num(x[i]))));
        }
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            String c = COLORS[k % COLORS.length];
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < x.length; i++) {
                if (Double.isNaN(s.y[i])) {
                    continue;
                }
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px(x[i], xmin, xmax, log), py(s.y[i], ymin, ymax)));
            }
            b.append("<polyline fill='none' stroke='").append(c).append("' stroke-width='2' points='")
                    .append(pts.toString().strip()).append("'/>\n");
            for (int i = 0; i < x.length; i++) {
                if (Double.isNaN(s.y[i])) {
                    continue;
                }
                double cx = px(x[i], xmin, xmax, log);
                if (s.sd[i] > 0) {
                    b.append(String.format(Locale.ROOT, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='%s'/>%n", cx, cx,
                            py(s.y[i] - s.sd[i], ymin, ymax), py(s.y[i] + s.sd[i], ymin, ymax), c));
                }
                b.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3.5' fill='%s'><title>%s: %s = %s (%s)</title></circle>%n",
                        cx, py(s.y[i], ymin, ymax), c, Html.escape(s.name), Html.escape(Figures.num(x[i])), Figures.num(s.y[i]), Figures.num(s.sd[i])));
            }
            legend(b, k, s.name, c);
        }
        return b.append("</svg>\n").toString();
    }

    /** One bar per variant (with a stdev whisker). */
    public static String barChart(String title, String yLabel, List<String> names, double[] y, double[] sd) {
        double ymax = 0;
        double ymin = 0;
        for (int i = 0; i < y.length; i++) {
            ymax = Math.max(ymax, y[i] + sd[i]);
            ymin = Math.min(ymin, y[i] - sd[i]);
        }
        AxisTicks ticks = AxisTicks.nice(ymin, ymax, 4);
        ymin = ticks.min();
        ymax = ticks.max();
        StringBuilder b = open(title);
        axes(b, "", yLabel, ticks);
        double slot = (double) (W - L - R) / Math.max(1, y.length);
        for (int i = 0; i < y.length; i++) {
            String c = COLORS[i % COLORS.length];
            double x0 = L + slot * i + slot * 0.15;
            double top = py(Math.max(0, y[i]), ymin, ymax);
            double bottom = py(Math.min(0, y[i]), ymin, ymax);
            b.append(String.format(Locale.ROOT, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>%s: %s (%s)</title></rect>%n",
                    x0, top, slot * 0.7, Math.max(0.5, bottom - top), c, Html.escape(names.get(i)), Figures.num(y[i]), Figures.num(sd[i])));
            if (sd[i] > 0) {
                double cx = x0 + slot * 0.35;
                b.append(String.format(Locale.ROOT, "<line x1='%.1f' x2='%.1f' y1='%.1f' y2='%.1f' stroke='black'/>%n", cx, cx,
                        py(y[i] - sd[i], ymin, ymax), py(y[i] + sd[i], ymin, ymax)));
            }
            legend(b, i, names.get(i), c);
        }
        return b.append("</svg>\n").toString();
    }

    private static StringBuilder open(String title) {
        StringBuilder b = new StringBuilder();
        b.append(String.format("<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' "
                + "font-family='sans-serif' role='img'>%n", W, H, W, H));
        b.append("<rect width='100%' height='100%' fill='white'/>\n");
        b.append(String.format("<text x='%d' y='22' font-size='14' font-weight='bold'>%s</text>%n", L, Html.escape(title)));
        return b;
    }

    private static void axes(StringBuilder b, String xLabel, String yLabel, AxisTicks ticks) {
        b.append(String.format("<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='black'/>%n", L, H - B, W - R, H - B));
        b.append(String.format("<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='black'/>%n", L, T, L, H - B));
        for (double v : ticks.values()) {
            double y = py(v, ticks.min(), ticks.max());
            b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>%n", L, W - R, y, y));
            b.append(String.format(Locale.ROOT, "<text class='tick' x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n", L - 4, y + 4,
                    Html.escape(ticks.label(v))));
        }
        b.append(String.format("<text x='%d' y='%d' text-anchor='middle' font-size='12'>%s</text>%n", (L + W - R) / 2, H - 12,
                Html.escape(xLabel)));
        b.append(String.format("<text x='14' y='%d' font-size='12' transform='rotate(-90 14 %d)' text-anchor='middle'>%s</text>%n",
                (T + H - B) / 2, (T + H - B) / 2, Html.escape(yLabel)));
    }

    private static void legend(StringBuilder b, int k, String name, String color) {
        int y = T + 10 + k * 18;
        b.append(String.format("<rect x='%d' y='%d' width='12' height='12' fill='%s'/>%n", W - R + 12, y - 10, color));
        String n = name.length() > 28 ? name.substring(0, 27) + "…" : name;
        b.append(String.format("<text x='%d' y='%d' font-size='11'>%s</text>%n", W - R + 28, y, Html.escape(n)));
    }

    private static double px(double x, double xmin, double xmax, boolean log) {
        if (xmax == xmin) {
            return (L + W - R) / 2.0;
        }
        double f = log ? (Math.log(x) - Math.log(xmin)) / (Math.log(xmax) - Math.log(xmin)) : (x - xmin) / (xmax - xmin);
        return L + 20 + f * (W - R - L - 40);
    }

    private static double py(double y, double ymin, double ymax) {
        return H - B - (y - ymin) / (ymax - ymin) * (H - B - T);
    }

    private static double min(double[] a) {
        double m = Double.MAX_VALUE;
        for (double v : a) {
            m = Math.min(m, v);
        }
        return m;
    }

    private static double max(double[] a) {
        double m = -Double.MAX_VALUE;
        for (double v : a) {
            m = Math.max(m, v);
        }
        return m;
    }
}

package dev.pvtlb.validation;

import dev.pvtlb.report.Json;
import dev.pvtlb.run.RunReport;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The reports of an experiment's runs, by run key, read the way the acceptance check reads them.
 *
 * @param shifted means replaced (run and metric joined by {@link #SEP}), to see how a figure moves with one of them
 * @param reads where the means read are noted (run and metric joined by {@link #SEP}), or null
 */
public record RunResults(Map<String, RunReport> reports, Map<String, Double> shifted, Set<String> reads) {
    private static final char SEP = '\u0000';

    RunResults(Map<String, RunReport> reports) {
        this(reports, Map.of(), null);
    }

    /**
     * A metric's mean as the JSON report gives it: the check reads means from {@code --json},
     * where they keep 6 decimals; reading them rounded the same way gives the check's figure to
     * the last digit, so a figure at a band's edge gets the same verdict from both.
     */
    double mean(String run, String metric) {
        String key = run + SEP + metric;
        if (reads != null) {
            reads.add(key);
        }
        Double s = shifted.get(key);
        if (s != null) {
            return s;
        }
        RunReport.Summary m = summary(run, metric);
        String reported = Json.number(m.mean());
        return reported.equals("null") ? Double.NaN : Double.parseDouble(reported);
    }

    /** A vmstat counter summed over the repetitions, as the JSON report gives it. */
    double counter(String run, String name) {
        Long v = report(run).counters().get(name);
        if (v == null) {
            throw new IllegalStateException("run " + run + " has no counter " + name);
        }
        return v;
    }

    /**
     * One standard error of what {@code figure} computes from these runs, from the spread of
     * their repetitions: each mean it reads is moved by its own standard error (the repetitions'
     * stdev over the square root of their number), one at a time, and the figure's moves are
     * added in quadrature (the delta method, by finite differences). The runs are taken as
     * independent; runs that share seeds are correlated, which this overstates. Counters, sums
     * over the repetitions, carry no spread here. 0 when the figure reads no mean or the runs
     * have one repetition.
     */
    double standardError(ToDoubleFunction<RunResults> figure) {
        Set<String> read = new LinkedHashSet<>();
        figure.applyAsDouble(new RunResults(reports, shifted, read));
        double variance = 0;
        for (String key : read) {
            int sep = key.indexOf(SEP);
            String run = key.substring(0, sep);
            String metric = key.substring(sep + 1);
            RunReport r = report(run);
            double se = summary(run, metric).stdev() / Math.sqrt(Math.max(1, r.reps()));
            if (!(se > 0)) {
                continue;
            }
            double at = mean(run, metric);
            double up = figure.applyAsDouble(with(key, at + se));
            double down = figure.applyAsDouble(with(key, at - se));
            double d = (up - down) / 2;
            if (Double.isFinite(d)) {
                variance += d * d;
            }
        }
        return Math.sqrt(variance);
    }

    private RunResults with(String key, double value) {
        Map<String, Double> m = new HashMap<>(shifted);
        m.put(key, value);
        return new RunResults(reports, m, null);
    }

    private RunReport.Summary summary(String run, String metric) {
        RunReport.Summary s = report(run).metrics().get(metric);
        if (s == null) {
            throw new IllegalStateException("run " + run + " has no metric " + metric);
        }
        return s;
    }

    private RunReport report(String run) {
        RunReport r = reports.get(run);
        if (r == null) {
            throw new IllegalStateException("no report of run " + run);
        }
        return r;
    }
}

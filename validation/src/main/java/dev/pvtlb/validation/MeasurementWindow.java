package dev.pvtlb.validation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulated time an experiment's figures are measured over. Every source of validation.md
 * times its run (sysbench's run phase over --time, netperf's, the kernbench build, the munmap
 * program's loop, the victim's run, ebizzy's records over its seconds). An emulated run measures
 * from its start to its end, except a sysbench run, which leaves out a warm-up ({@code warmup_us})
 * as its source's 10 s make the start negligible. The measured part is one repetition's simulated
 * time after the warm-up, the mean over the experiment's runs with the shortest and the longest
 * beside it; its length is set by the runs' {@code length} parameter
 * ({@link ValidationRun#lengthKey()}).
 *
 * @param length the parameter that sets the window's length ({@code ops}, {@code host_slices}, {@code time_us})
 * @param warmupS simulated seconds before the measurement that no figure reads
 * @param measuredS mean simulated seconds of one repetition, over the experiment's runs
 */
public record MeasurementWindow(String length, double warmupS, double measuredS, double shortestS, double longestS) {
    /** The window of {@code e}'s runs in {@code results}; null when none of them is there. */
    static MeasurementWindow of(ValidationExperiment e, RunResults results) {
        double warmup = e.runs().get(0).warmupS();
        double sum = 0;
        double shortest = Double.POSITIVE_INFINITY;
        double longest = 0;
        int n = 0;
        for (ValidationRun r : e.runs()) {
            var report = results.reports().get(r.key());
            if (report == null) {
                continue;
            }
            double s = report.simulatedS() / report.reps() - warmup;
            sum += s;
            shortest = Math.min(shortest, s);
            longest = Math.max(longest, s);
            n++;
        }
        return n == 0 ? null : new MeasurementWindow(e.runs().get(0).lengthKey(), warmup, sum / n, shortest, longest);
    }

    /** For people: {@code 0 s warm-up, 0.0481 s measured (0.0479..0.0483 s, ops)}. */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s s warm-up, %s s measured (%s..%s s per run, set by %s)",
                seconds(warmupS), seconds(measuredS), seconds(shortestS), seconds(longestS), length);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("warmup_s", warmupS);
        m.put("measured_s", measuredS);
        m.put("shortest_s", shortestS);
        m.put("longest_s", longestS);
        m.put("length", length);
        return m;
    }

    private static String seconds(double s) {
        return s == 0 ? "0" : String.format(java.util.Locale.ROOT, "%.4g", s);
    }
}

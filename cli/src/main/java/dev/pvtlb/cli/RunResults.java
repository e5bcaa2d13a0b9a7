package dev.pvtlb.cli;

import dev.pvtlb.report.Json;
import dev.pvtlb.run.RunReport;
import java.util.Map;

/** The reports of an experiment's runs, by run key, read the way the acceptance check reads them. */
record RunResults(Map<String, RunReport> reports) {
    /**
     * A metric's mean as the JSON report gives it: the check reads means from {@code --json},
     * where they keep 6 decimals; reading them rounded the same way gives the check's figure to
     * the last digit, so a figure at a band's edge gets the same verdict from both.
     */
    double mean(String run, String metric) {
        RunReport.Summary s = report(run).metrics().get(metric);
        if (s == null) {
            throw new IllegalStateException("run " + run + " has no metric " + metric);
        }
        String reported = Json.number(s.mean());
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

    private RunReport report(String run) {
        RunReport r = reports.get(run);
        if (r == null) {
            throw new IllegalStateException("no report of run " + run);
        }
        return r;
    }
}

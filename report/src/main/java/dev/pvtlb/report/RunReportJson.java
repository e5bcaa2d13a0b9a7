package dev.pvtlb.report;

import dev.pvtlb.run.RunReport;

/**
 * The documented, stable JSON report of one run ({@code pvtlb run --json}): {@link RunReport#toMap()}
 * written by {@link Json}, so the same scenario and seed give the same bytes apart from
 * {@code host_timing}.
 */
public final class RunReportJson {
    private RunReportJson() {}

    public static String toJson(RunReport report) {
        return Json.write(report.toMap());
    }
}

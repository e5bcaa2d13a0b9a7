/** What every command writes: text, JSON, CSV, HTML, SVG charts, progress bars, one-line errors. */
module dev.pvtlb.report {
    requires transitive dev.pvtlb.guest; // RunReportJson writes the guest's RunReport

    exports dev.pvtlb.report;
}

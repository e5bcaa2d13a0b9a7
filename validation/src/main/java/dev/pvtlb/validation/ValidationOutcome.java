package dev.pvtlb.validation;

import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.report.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link Validation#run} found: each experiment's figures against its bands, and the
 * sensitivity and steady-state sections when they were asked for, with every form
 * {@code pvtlb validate} writes them in (text, JSON, Markdown, HTML). Nothing here reads a clock,
 * so the same runs give the same bytes.
 */
public final class ValidationOutcome {
    private final List<ValidationResult> results;
    private final String fidelity;
    private final int reps;
    private final ValidationReport report;
    private final Sensitivity sensitivity;
    private final SteadyState steady;

    ValidationOutcome(List<ValidationResult> results, String fidelity, int reps, Sensitivity sensitivity, SteadyState steady) {
        this.results = List.copyOf(results);
        this.fidelity = fidelity;
        this.reps = reps;
        this.report = new ValidationReport(this.results, ValidationReport.REPETITIONS, fidelity, reps);
        this.sensitivity = sensitivity;
        this.steady = steady;
    }

    /** One result per experiment, in table order. */
    public List<ValidationResult> results() {
        return results;
    }

    /** The sensitivity section, when {@link ValidationOptions#sensitivity()} asked for it. */
    public Optional<Sensitivity> sensitivity() {
        return Optional.ofNullable(sensitivity);
    }

    /** The steady-state section, when {@link ValidationOptions#steady()} asked for it. */
    public Optional<SteadyState> steadyState() {
        return Optional.ofNullable(steady);
    }

    /** The table, then the sensitivity and steady-state sections: what {@code pvtlb validate} prints. */
    public void print(PrintWriter out) {
        report.print(out);
        if (sensitivity != null) {
            sensitivity.print(out);
        }
        if (steady != null) {
            steady.print(out);
        }
    }

    /** {@code {"fidelity", "experiments": [...], "not_run_yet", "sensitivity"?}}, as data. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = report.toMap(steady);
        if (sensitivity != null) {
            m.put("sensitivity", sensitivity.toMap());
        }
        return m;
    }

    /** What {@code --json} writes. */
    public String json() {
        return Json.write(toMap());
    }

    /** The figures as Markdown tables, then the fidelity level: the generated block of docs/validation.md. */
    public String markdown() {
        return ValidationMarkdown.tables(results, fidelity, reps);
    }

    /**
     * {@code existing} (a page's text, or null) with its block between {@link Validation#MARKDOWN_BEGIN}
     * and {@link GeneratedBlock#END} replaced by {@link #markdown()}; the tables alone when it has none.
     */
    public String markdownInto(String existing) {
        return ValidationMarkdown.into(existing, markdown());
    }

    /** A self-contained HTML page: per experiment its source, figures and charts, then the sections asked for. */
    public String toHtml() {
        String page = report.toHtml();
        if (sensitivity != null) {
            page = page.replace("</body></html>", sensitivity.toHtml() + "</body></html>");
        }
        if (steady != null) {
            page = page.replace("</body></html>", steady.toHtml() + "</body></html>");
        }
        return page;
    }
}

package dev.pvtlb.cli;

import dev.pvtlb.run.ScenarioInfo;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The safety half of {@code pvtlb assess}: every catalogue entry (each a historical TLB-flush
 * race, safe in the kernel that fixed it) and the torture workload explored on the design under
 * each table-free policy,
 * since whether page tables are freed at once or after a grace period decides which races a
 * flush must close. A hazard on the design with the fixed kernel's knobs is the design's; its
 * shrunk schedule is written as a trace file that {@code pvtlb replay} runs again. An entry the
 * design cannot run (a scenario that needs another backend's knobs) is listed as not applicable,
 * with the reason.
 */
final class DesignSafety {
    static final List<String> POLICIES = List.of("immediate", "rcu");
    /**
     * After the catalogue, the torture workload: a random mix of the operations that race
     * (munmap, madvise, mprotect, mremap, fork, gup_fast, idle CPUs), for the bugs no entry was
     * written for.
     */
    static final String TORTURE = "tlb-torture";

    /** One entry under one policy: SAFE, HAZARD or n/a. */
    record Hunt(String entry, String tableFree, String verdict, long schedules, String hazard, String kind, Path trace,
                String replay, String note) {
        /** The schedules explored, or the hazard with its schedule and trace, or why the entry does not apply. */
        String what() {
            return switch (verdict) {
                case "SAFE" -> schedules + " schedules";
                case "HAZARD" -> "at schedule " + schedules + ": " + hazard + " (" + replay + ")";
                default -> note;
            };
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("entry", entry);
            m.put("table_free", tableFree);
            m.put("verdict", verdict);
            m.put("schedules", schedules);
            m.put("hazard", hazard);
            m.put("kind", kind);
            m.put("trace", trace == null ? null : trace.toString());
            m.put("replay", replay);
            m.put("note", note);
            return m;
        }
    }

    private final String backend;
    private final long budget;
    private final List<Hunt> hunts;

    private DesignSafety(String backend, long budget, List<Hunt> hunts) {
        this.backend = backend;
        this.budget = budget;
        this.hunts = hunts;
    }

    /** Explores every entry under each policy; {@code jar}, the design's jar or null, goes into each replay command. */
    static DesignSafety run(String backend, Path jar, long budget, double seconds, long seed, Path traces) throws IOException {
        List<String> entries = new ArrayList<>(ScenarioInfo.catalogue().stream().map(ScenarioInfo::name).toList());
        entries.add(TORTURE);
        List<Hunt> hunts = new ArrayList<>();
        for (String entry : entries) {
            for (String policy : POLICIES) {
                hunts.add(hunt(entry, backend, jar, policy, budget, seconds, seed, traces));
            }
        }
        return new DesignSafety(backend, budget, List.copyOf(hunts));
    }

    private static Hunt hunt(String entry, String backend, Path jar, String policy, long budget, double seconds, long seed, Path traces)
            throws IOException {
        ExploreResult r;
        try {
            Scenario s = ScenarioArgs.forHunt(entry, backend, List.of("tableFree=" + policy), seed);
            r = new Explorer(s).explore(Explorer.strategy("pct", seed, 3, 2), budget, seconds);
        } catch (ModelException e) {
            // The entry refuses this design (its set-up needs another backend's knobs): not a verdict.
            return new Hunt(entry, policy, "n/a", 0, null, null, null, null, e.getMessage());
        }
        if (r.safe()) {
            return new Hunt(entry, policy, "SAFE", r.schedules(), null, null, null, null, null);
        }
        Files.createDirectories(traces);
        Path trace = traces.resolve(entry + "-" + backend + "-" + policy + ".trace");
        ReportFile.write(trace, "--traces", r.toTraceFile().write(r.trace()));
        String replay = "pvtlb replay " + trace + (jar == null ? "" : " --backend-jar " + jar);
        return new Hunt(entry, policy, "HAZARD", r.foundAt(), r.hazard().toString(), r.hazard().kind().toString(), trace, replay, null);
    }

    long hazards() {
        return hunts.stream().filter(h -> h.verdict().equals("HAZARD")).count();
    }

    void print(PrintWriter out) {
        out.printf("safety: every catalogue entry and %s explored on %s under each table-free policy (pct, at most %d schedules)%n", TORTURE,
                backend, budget);
        String row = "%-26s %-10s %-8s %s%n";
        out.printf(row, "entry", "tableFree", "verdict", "schedules, or the hazard and its trace");
        for (Hunt h : hunts) {
            out.printf(row, h.entry(), h.tableFree(), h.verdict(), h.what());
        }
        long na = hunts.stream().filter(h -> h.verdict().equals("n/a")).count();
        out.printf("%nsafety verdict: %s (%d hazards in %d hunts, %d not applicable)%n", hazards() == 0 ? "SAFE" : "UNSAFE", hazards(),
                hunts.size() - na, na);
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("verdict", hazards() == 0 ? "SAFE" : "UNSAFE");
        m.put("hazards", hazards());
        m.put("strategy", "pct");
        m.put("budget", budget);
        m.put("hunts", hunts.stream().map(Hunt::toMap).toList());
        return m;
    }

    String toHtml() {
        StringBuilder b = new StringBuilder("<h1>Safety</h1>\n<p>Every catalogue entry and ").append(TORTURE)
                .append(" explored on ").append(Html.escape(backend))
                .append(" under each table-free policy (pct, at most ").append(budget).append(" schedules): <b class='")
                .append(hazards() == 0 ? "pass'>SAFE" : "fail'>UNSAFE").append("</b>.</p>\n<table><tr><th>entry</th><th>tableFree</th>"
                        + "<th>verdict</th><th>schedules, or the hazard and its trace</th></tr>\n");
        for (Hunt h : hunts) {
            String cls = h.verdict().equals("HAZARD") ? "fail" : h.verdict().equals("SAFE") ? "pass" : "";
            b.append("<tr><td>").append(Html.escape(h.entry())).append("</td><td>").append(Html.escape(h.tableFree()))
                    .append("</td><td class='").append(cls).append("'>").append(Html.escape(h.verdict())).append("</td><td style='text-align:left'>")
                    .append(Html.escape(h.what())).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }
}

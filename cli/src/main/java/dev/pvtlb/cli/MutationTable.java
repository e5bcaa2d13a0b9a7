package dev.pvtlb.cli;

import dev.pvtlb.run.ScenarioInfo;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.LocalRuns;
import dev.pvtlb.study.ScenarioArgs;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The project's mutation test as a table: each {@code inject=} bug planted in turn and hunted by
 * the catalogue (every entry, as the catalogue's verdict on that bug), by the torture workload and
 * by every other built-in workload at its defaults, each explored with the random strategy for a
 * schedule budget. It asks what the catalogue cannot: which of the workloads a researcher runs
 * would have caught a bug nobody wrote an entry for.
 */
final class MutationTable {
    /** One hunt: a bug in one scenario. */
    record Cell(String scenario, String verdict, long foundAt, String kind, long schedules, double seconds, String note) {
        boolean found() {
            return verdict.equals("found");
        }

        /**
         * The schedule of the first hit ("walk" for a walk after free), "-" for none in the budget,
         * "-(N)" for none in the N schedules the time cap allowed, "n/a" where the scenario refuses the backend.
         */
        String mark() {
            return switch (verdict) {
                case "found" -> Long.toString(foundAt) + (kind.equals("WALK_AFTER_FREE") ? " walk" : "");
                case "safe" -> "-";
                case "cut" -> "-(" + schedules + ")";
                default -> "n/a";
            };
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("scenario", scenario);
            m.put("verdict", verdict);
            m.put("found_at", found() ? foundAt : null);
            m.put("kind", kind);
            m.put("schedules", schedules);
            m.put("note", note);
            return m;
        }
    }

    /** One bug on one backend: the catalogue's cells, then the workloads'. */
    record Row(InjectedBug bug, String backend, List<String> settings, List<Cell> catalogue, List<Cell> workloads) {
        long catalogueFound() {
            return catalogue.stream().filter(Cell::found).count();
        }

        /** The catalogue's column: how many entries find it, and the first of them with its schedule. */
        String catalogueMark() {
            Cell first = catalogue.stream().filter(Cell::found).min(java.util.Comparator.comparingLong(Cell::foundAt)).orElse(null);
            return catalogueFound() + " of " + catalogue.size() + (first == null ? "" : " (" + first.scenario() + " " + first.mark() + ")");
        }

        /** Every entry that finds it, with the schedule of its first hit: "N of M: `entry` (1), ...". */
        String catalogueList() {
            List<String> found = catalogue.stream().filter(Cell::found).map(c -> "`" + c.scenario() + "` (" + c.mark() + ")").toList();
            return catalogueFound() + " of " + catalogue.size() + (found.isEmpty() ? "" : ": " + String.join(", ", found));
        }
    }

    /**
     * Where each bug's code runs: the guest kernel's bugs on bare metal, KVM's entry path on kvm,
     * the flush hypercall's host on xen-pv.
     */
    static String homeBackend(InjectedBug bug) {
        return switch (bug) {
            case KVM_ENTRY_DROPS_FLUSH -> "kvm";
            case HOST_DROPS_DEFERRED_FLUSH, RCU_GP_INSTANT -> "xen-pv";
            default -> "native";
        };
    }

    /**
     * Settings a bug needs to be visible at all: handing the batch to call_rcu() before the flush
     * is invisible under non-preemptible RCU, whose grace period cannot end while the unmapping CPU
     * is still in the kernel (docs/scenarios.md, Mutation test).
     */
    static List<String> conditions(InjectedBug bug) {
        return bug == InjectedBug.CALL_RCU_BEFORE_FLUSH ? List.of("rcu=preempt") : List.of();
    }

    /** The workload columns: the torture workload first, then every built-in workload that is not a catalogue entry. */
    static List<String> defaultWorkloads() {
        List<String> names = new ArrayList<>(List.of(DesignSafety.TORTURE));
        List<String> catalogue = ScenarioInfo.catalogue().stream().map(ScenarioInfo::name).toList();
        for (ScenarioInfo w : ScenarioInfo.all()) {
            if (!catalogue.contains(w.name()) && !w.name().equals(DesignSafety.TORTURE)) {
                names.add(w.name());
            }
        }
        return names;
    }

    private final List<Row> rows;
    private final List<String> workloads;
    private final long catalogueBudget;
    private final long workloadBudget;

    private MutationTable(List<Row> rows, List<String> workloads, long catalogueBudget, long workloadBudget) {
        this.rows = rows;
        this.workloads = workloads;
        this.catalogueBudget = catalogueBudget;
        this.workloadBudget = workloadBudget;
    }

    /**
     * Hunts every bug of {@code bugs} on each of {@code backends} (empty: the bug's home) in every
     * catalogue entry and every workload of {@code workloads}, {@code cores} hunts at a time
     * ({@link LocalRuns}). Each hunt is a fresh scenario and explorer, so the table is the same for
     * any {@code cores}.
     */
    static MutationTable run(List<InjectedBug> bugs, List<String> backends, List<String> workloads, long catalogueBudget,
            long workloadBudget, double seconds, long seed, int cores, ProgressBar progress) throws InterruptedException {
        List<String> catalogue = ScenarioInfo.catalogue().stream().map(ScenarioInfo::name).toList();
        List<Row> shapes = new ArrayList<>();
        List<HuntSpec> hunts = new ArrayList<>();
        for (InjectedBug bug : bugs) {
            for (String b : backends.isEmpty() ? List.of(homeBackend(bug)) : backends) {
                shapes.add(new Row(bug, b, conditions(bug), List.of(), List.of()));
                catalogue.forEach(entry -> hunts.add(new HuntSpec(entry, b, bug, catalogueBudget)));
                workloads.forEach(workload -> hunts.add(new HuntSpec(workload, b, bug, workloadBudget)));
            }
        }
        List<Cell> cells = LocalRuns.run(hunts, cores, h -> hunt(h.scenario(), h.backend(), h.bug(), h.budget(), seconds, seed),
                h -> h.bug().value + " in " + h.scenario() + " on " + h.backend(), "pvtlb-mutants", progress);
        // The hunts are in row order, each row's catalogue entries before its workloads.
        List<Row> rows = new ArrayList<>();
        int width = catalogue.size() + workloads.size();
        for (int i = 0; i < shapes.size(); i++) {
            Row r = shapes.get(i);
            List<Cell> row = cells.subList(i * width, (i + 1) * width);
            rows.add(new Row(r.bug(), r.backend(), r.settings(), List.copyOf(row.subList(0, catalogue.size())),
                    List.copyOf(row.subList(catalogue.size(), width))));
        }
        return new MutationTable(List.copyOf(rows), List.copyOf(workloads), catalogueBudget, workloadBudget);
    }

    /** One hunt of the table: a bug in a scenario on a backend, for a schedule budget. */
    private record HuntSpec(String scenario, String backend, InjectedBug bug, long budget) {}

    /** One bug in one scenario, hunted as {@code pvtlb explore} hunts (speculation on, the backend's memory model). */
    static Cell hunt(String scenario, String backend, InjectedBug bug, long budget, double seconds, long seed) {
        List<String> sets = new ArrayList<>(conditions(bug));
        sets.add("inject=" + bug.value);
        ExploreResult r;
        try {
            Scenario s = ScenarioArgs.forHunt(scenario, backend, sets, seed);
            r = new Explorer(s).explore(Explorer.strategy("random", seed, 3, 2), budget, seconds);
        } catch (ModelException e) {
            return new Cell(scenario, "n/a", 0, null, 0, 0, e.getMessage());
        }
        if (r.safe()) {
            return new Cell(scenario, r.schedules() < budget ? "cut" : "safe", 0, null, r.schedules(), r.seconds(), null);
        }
        return new Cell(scenario, "found", r.foundAt(), r.hazard().kind().toString(), r.foundAt(), r.seconds(), null);
    }

    List<Row> rows() {
        return rows;
    }

    void print(PrintWriter out) {
        out.printf("mutation test: each inject= bug hunted by the %d catalogue entries (at most %d schedules each) and by %s "
                + "(at most %d schedules each); a cell is the schedule of the first hit, '-' none%n%n", rows.isEmpty() ? 0
                : rows.get(0).catalogue().size(), catalogueBudget, String.join(", ", workloads), workloadBudget);
        StringBuilder head = new StringBuilder(String.format("%-26s %-8s %-40s", "bug", "backend", "catalogue"));
        for (String w : workloads) {
            head.append(String.format(" %-" + Math.max(8, w.length()) + "s", w));
        }
        out.println(head.toString().stripTrailing());
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format("%-26s %-8s %-40s", r.bug().value, r.backend(), r.catalogueMark()));
            for (int i = 0; i < workloads.size(); i++) {
                line.append(String.format(" %-" + Math.max(8, workloads.get(i).length()) + "s", r.workloads().get(i).mark()));
            }
            out.println(line.toString().stripTrailing());
        }
        out.printf("%n%s%n", summary());
    }

    /** How many rows the catalogue catches, and how many some workload does. */
    String summary() {
        long caught = rows.stream().filter(r -> r.catalogueFound() > 0).count();
        long byWorkload = rows.stream().filter(r -> r.workloads().stream().anyMatch(Cell::found)).count();
        return String.format("The catalogue finds %d of %d; the workloads (torture included) find %d of %d.", caught, rows.size(),
                byWorkload, rows.size());
    }

    /** The table as Markdown, for docs/mutation.md: its budgets and seed, then one row per bug, one column per workload. */
    String toMarkdown(long seed) {
        StringBuilder b = new StringBuilder();
        b.append("Seed ").append(seed).append("; at most ").append(catalogueBudget).append(" schedules per catalogue entry and ")
                .append(workloadBudget).append(" per workload.\n\n");
        b.append("| bug | backend | catalogue |");
        StringBuilder rule = new StringBuilder("|---|---|---|");
        for (String w : workloads) {
            b.append(" `").append(w).append("` |");
            rule.append("---|");
        }
        b.append('\n').append(rule).append('\n');
        for (Row r : rows) {
            String bug = "`" + r.bug().value + "`" + (r.settings().isEmpty() ? "" : " (" + String.join(" ", r.settings()) + ")");
            b.append("| ").append(bug).append(" | ").append(r.backend()).append(" | ").append(r.catalogueList()).append(" |");
            for (Cell c : r.workloads()) {
                b.append(' ').append(c.mark()).append(" |");
            }
            b.append('\n');
        }
        return b.append('\n').append(summary()).append('\n').toString();
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("catalogue_budget", catalogueBudget);
        m.put("workload_budget", workloadBudget);
        m.put("workloads", workloads);
        List<Object> rs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("bug", r.bug().value);
            row.put("backend", r.backend());
            row.put("settings", r.settings());
            row.put("catalogue_found", r.catalogueFound());
            row.put("catalogue", r.catalogue().stream().map(Cell::toMap).toList());
            row.put("workloads", r.workloads().stream().map(Cell::toMap).toList());
            rs.add(row);
        }
        m.put("rows", rs);
        return m;
    }
}

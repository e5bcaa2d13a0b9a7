package dev.pvtlb.study;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.explore.ChoiceSource;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.Strategy;
import dev.pvtlb.explore.TraceFile;
import dev.pvtlb.report.OneLine;
import dev.pvtlb.run.Scenario;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * An explore campaign: one scenario, knob variants, a strategy and a total schedule budget.
 * Each variant's share of the budget is cut into {@code tasks} slices of consecutive schedule
 * numbers (schedule i of the random and pct strategies draws from its own stream of the seed, so
 * a slice is a range of per-schedule seeds and needs nothing from the others). Slices run in
 * waves of {@code wave}; a variant stops after the first wave that found a hazard, keeping the
 * lowest-numbered find. The outcome depends only on the file, not on where the slices ran.
 */
public record Campaign(String scenario, String backend, Map<String, String> sets, List<Map<String, String>> variants,
                       String strategy, int depth, long budget, long seed, int tasks, int wave) implements Serializable {
    private static final Set<String> KEYS = Set.of("scenario", "backend", "set", "variants", "strategy", "depth", "budget",
            "seed", "tasks", "wave");

    public Campaign {
        sets = Collections.unmodifiableMap(new LinkedHashMap<>(sets));
        List<Map<String, String>> vs = new ArrayList<>();
        variants.forEach(v -> vs.add(Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        variants = Collections.unmodifiableList(vs);
    }

    /** One slice of schedules of one variant: schedule numbers [start, start + count). */
    public record Task(int variant, int slice, long start, long count) implements Serializable {}

    /** What a slice found: how many schedules it ran, and for a hazard its global number and trace file text. */
    public record TaskResult(int variant, int slice, long schedules, long foundAt, String hazard, String trace)
            implements Serializable {
        public boolean found() {
            return hazard != null;
        }
    }

    /** The verdict for one variant. */
    public record Outcome(int variant, Map<String, String> settings, long schedules, long foundAt, String hazard,
                          String trace) implements Serializable {
        public boolean found() {
            return hazard != null;
        }
    }

    static Campaign parse(String file, Object node) {
        if (!(node instanceof Map<?, ?> m)) {
            throw new ModelException(file + ": 'explore' must be a mapping (scenario:, variants:, strategy:, budget:)");
        }
        for (Object k : m.keySet()) {
            if (!KEYS.contains(String.valueOf(k))) {
                throw new ModelException(file + ": unknown key 'explore." + k + "' (known: scenario, backend, set, variants, "
                        + "strategy, depth, budget, seed, tasks, wave)");
            }
        }
        if (!(m.get("scenario") instanceof String name) || name.isBlank()) {
            throw new ModelException(file + ": 'explore.scenario' must name a built-in scenario (see 'pvtlb scenarios')");
        }
        String backend = m.containsKey("backend") ? Study.scalar(file, "explore.backend", m.get("backend")) : "native";
        Map<String, String> sets = Study.stringMap(file, "explore.set", m.get("set"));
        List<Map<String, String>> variants = new ArrayList<>();
        Object vs = m.get("variants");
        if (vs == null) {
            variants.add(Map.of());
        } else if (vs instanceof List<?> l && !l.isEmpty()) {
            for (Object v : l) {
                variants.add(Study.stringMap(file, "explore.variants", v));
            }
        } else {
            throw new ModelException(file + ": explore.variants must be a non-empty list of {key: value} mappings");
        }
        String strategy = m.containsKey("strategy") ? Study.scalar(file, "explore.strategy", m.get("strategy")) : "random";
        if (!strategy.equals("random") && !strategy.equals("pct")) {
            throw new ModelException(file + ": explore.strategy must be random or pct (an exhaustive search cannot be "
                    + "split into slices), got '" + strategy + "'");
        }
        int depth = m.containsKey("depth") ? (int) Study.integer(file, "explore.depth", m.get("depth"), 1, 64) : 3;
        if (!m.containsKey("budget")) {
            throw new ModelException(file + ": explore.budget (total schedules) is missing");
        }
        long budget = Study.integer(file, "explore.budget", m.get("budget"), 1, Long.MAX_VALUE / 4);
        long seed = m.containsKey("seed") ? Study.integer(file, "explore.seed", m.get("seed"), Long.MIN_VALUE, Long.MAX_VALUE) : 1;
        int tasks = m.containsKey("tasks") ? (int) Study.integer(file, "explore.tasks", m.get("tasks"), 1, 100_000) : 16;
        int wave = m.containsKey("wave") ? (int) Study.integer(file, "explore.wave", m.get("wave"), 1, 100_000) : 4;
        if (budget < variants.size()) {
            throw new ModelException(file + ": explore.budget " + budget + " is less than one schedule per variant");
        }
        Campaign c = new Campaign(name, backend, sets, variants, strategy, depth, budget, seed, tasks, wave);
        for (int i = 0; i < variants.size(); i++) {
            int v = i;
            try {
                c.scenario(v);
            } catch (ModelException e) {
                throw new ModelException(file + ": explore.variants[" + v + "]: " + OneLine.of(e.getMessage()));
            }
        }
        return c;
    }

    /** The scenario of variant {@code v}: base settings, then the variant's. */
    public Scenario scenario(int v) {
        Scenario s = Scenario.of(scenario).backend(backend).seed(seed);
        sets.forEach(s::set);
        variants.get(v).forEach(s::set);
        return s;
    }

    /** The budget of variant {@code v}: an even share of the total, the remainder to the first variants. */
    long budgetOf(int v) {
        long share = budget / variants.size();
        return share + (v < budget % variants.size() ? 1 : 0);
    }

    /** The slices of variant {@code v}, in schedule order (fewer than {@code tasks} when its budget is small). */
    public List<Task> tasksOf(int v) {
        long b = budgetOf(v);
        int n = (int) Math.min(tasks, b);
        List<Task> out = new ArrayList<>();
        long start = 0;
        for (int i = 0; i < n; i++) {
            long count = b / n + (i < b % n ? 1 : 0);
            out.add(new Task(v, i, start, count));
            start += count;
        }
        return out;
    }

    /** Runs one slice on this thread: explores its schedules and stops at its first hazard. */
    public TaskResult run(Task t) {
        Scenario s = scenario(t.variant());
        Strategy inner = Explorer.strategy(strategy, seed, depth, 2);
        Strategy slice = new Strategy() {
            @Override
            public ChoiceSource schedule(int index) {
                return inner.schedule((int) Math.min(t.start() + index, Integer.MAX_VALUE));
            }

            @Override
            public void finished(List<dev.pvtlb.explore.Choice> taken) {
                inner.finished(taken);
            }

            @Override
            public String name() {
                return inner.name();
            }
        };
        ExploreResult r = new Explorer(s).explore(slice, t.count(), Double.POSITIVE_INFINITY);
        if (r.safe()) {
            return new TaskResult(t.variant(), t.slice(), r.schedules(), 0, null, null);
        }
        return new TaskResult(t.variant(), t.slice(), r.schedules(), t.start() + r.foundAt(), r.hazard().toString(),
                r.toTraceFile().write(r.trace()));
    }

    /**
     * Runs the campaign, handing each wave of slices to {@code runWave} (which may run them
     * anywhere, in any order, but returns one result per slice).
     */
    public List<Outcome> execute(Function<List<Task>, List<TaskResult>> runWave) {
        List<List<Task>> pending = new ArrayList<>();
        long[] schedules = new long[variants.size()];
        TaskResult[] hit = new TaskResult[variants.size()];
        for (int v = 0; v < variants.size(); v++) {
            pending.add(new ArrayList<>(tasksOf(v)));
        }
        while (true) {
            List<Task> wave = new ArrayList<>();
            for (int v = 0; v < variants.size() && wave.size() < this.wave; v++) {
                while (hit[v] == null && !pending.get(v).isEmpty() && wave.size() < this.wave) {
                    wave.add(pending.get(v).remove(0));
                }
            }
            if (wave.isEmpty()) {
                break;
            }
            List<TaskResult> results = runWave.apply(wave);
            if (results.size() != wave.size()) {
                throw new IllegalStateException("a wave of " + wave.size() + " slices returned " + results.size() + " results");
            }
            for (TaskResult r : results) {
                schedules[r.variant()] += r.schedules();
                if (r.found() && (hit[r.variant()] == null || r.foundAt() < hit[r.variant()].foundAt())) {
                    hit[r.variant()] = r;
                }
            }
        }
        List<Outcome> out = new ArrayList<>();
        for (int v = 0; v < variants.size(); v++) {
            Map<String, String> settings = new LinkedHashMap<>(sets);
            settings.putAll(variants.get(v));
            TaskResult h = hit[v];
            out.add(new Outcome(v, settings, schedules[v], h == null ? 0 : h.foundAt(), h == null ? null : h.hazard(),
                    h == null ? null : h.trace()));
        }
        return out;
    }
}

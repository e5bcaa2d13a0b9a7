package dev.pvtlb.explore;

import dev.pvtlb.Guest;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.run.Scenario;
import java.util.List;
import java.util.function.Consumer;

/**
 * The schedule explorer: runs a scenario under schedule after schedule chosen by a strategy,
 * until a hazard is found or the budget (schedules or seconds) is spent. A found schedule is
 * shrunk and replayed once more with the step log on, for a readable trace.
 */
public final class Explorer {
    /** Lines of readable trace kept before the violation. */
    public static final int TRACE_LINES = 80;

    private final Scenario scenario;
    /** Schedules run at once, each on a guest of its own (1: one after another on this thread). */
    private int parallel = 1;

    /**
     * {@code s} as the explorer hunts in it unless told otherwise (pvtlb explore, assess, sweep
     * campaigns): a SAFE verdict counts only if the hardware's speculative walks were allowed, and
     * stores could become visible late as the backend's CPU lets them.
     */
    public static Scenario huntDefaults(Scenario s) {
        if (s.settings().stream().noneMatch(kv -> kv.startsWith("speculation="))) {
            s.set("speculation", "on");
        }
        if (s.settings().stream().noneMatch(kv -> kv.startsWith("memoryModel="))) {
            s.set("memoryModel", defaultMemoryModel(s.backend()));
        }
        return s;
    }

    /**
     * The memory ordering {@code explore} models unless told otherwise: the backend's CPU's
     * ({@code arm} on arm64, {@code tso} on x86), so that a SAFE verdict covers stores that become
     * visible late. run, compare and validate keep {@code sc}.
     */
    public static String defaultMemoryModel(String backend) {
        return dev.pvtlb.internal.kernel.MemoryModel.ofBackend(backend);
    }

    public Explorer(Scenario scenario) {
        // A copy: the explorer's exact quantum must not leak into the caller's later runs of it.
        this.scenario = scenario.copy().defaultQuantum(0);
    }

    /**
     * Runs up to {@code workers} schedules at once when the strategy's schedules are independent
     * ({@link Strategy#independent}; else one at a time), each worker on a guest of its own: a
     * guest is single threaded and a schedule's run depends on its choices alone. The result is
     * the one thread's: schedules are taken in index order and the hazard reported is that of the
     * lowest-numbered schedule that found one, after every schedule before it has run.
     */
    public Explorer parallel(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("parallel must be at least 1, got " + workers);
        }
        this.parallel = workers;
        return this;
    }

    public ExploreResult explore(Strategy strategy, long budgetSchedules, double budgetSeconds) {
        try (ScheduleRunner runner = new ScheduleRunner(scenario)) {
            long start = System.nanoTime();
            ScheduleRun found;
            long n;
            if (parallel > 1 && strategy.independent()) {
                ParallelSearch search = new ParallelSearch(strategy, budgetSchedules, start, budgetSeconds);
                search.run(runner, parallel, () -> new ScheduleRunner(scenario.copy()));
                found = search.found();
                n = search.schedules();
            } else {
                found = null;
                n = 0;
                while (found == null && n < budgetSchedules && !strategy.exhausted()
                        && (System.nanoTime() - start) / 1e9 < budgetSeconds) {
                    ScheduleRun r = runner.run(strategy.schedule((int) Math.min(n, Integer.MAX_VALUE)), 0);
                    n++;
                    strategy.finished(r.choices());
                    found = r.found() ? r : null;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (found == null) {
                return new ExploreResult(strategy.name(), n, seconds, strategy.exhausted(), null, 0, List.of(), 0, List.of(), explored());
            }
            ScheduleRun small = new Shrinker(runner).shrink(found);
            ScheduleRun readable = runner.run(new ReplaySource(small.choices(), true), TRACE_LINES);
            Hazard h = readable.found() ? readable.hazard() : small.hazard();
            return new ExploreResult(strategy.name(), n, seconds, false, h, n, small.choices(), readable.steps(),
                    readable.stepLog(), explored());
        }
    }

    /** Windows branched from each checkpoint. */
    public static final int WINDOWS_PER_CHECKPOINT = 4;

    /**
     * Explores a workload in windows rather than whole runs: base runs from boot (base run b takes
     * schedule b of a random stream of the scenario's seed, so its warm states differ from one base
     * to the next), and at each flush one starts, {@link #WINDOWS_PER_CHECKPOINT} branches of the
     * model run {@code windowNs} of virtual time each, window k of base b with the choices of
     * {@code strategy}'s schedule {@code b * 65536 + k} (ScheduleRunner#runWindows, WindowHunt).
     * Until a hazard, {@code budgetWindows} windows or {@code budgetSeconds}; with
     * {@link #parallel} workers and an independent strategy, base runs are shared out and the
     * earliest hazard in (base, window) order is reported. A window's hazard is shrunk and replayed
     * from boot like a whole run's: its choices are the base's up to the checkpoint and then its
     * own. The {@link ExploreResult} counts windows as schedules and base runs in
     * {@code baseRuns}. Throws UnsupportedOperationException when the model cannot be branched
     * (an object the copy does not know).
     */
    public ExploreResult exploreWindows(Strategy strategy, long budgetWindows, double budgetSeconds, long windowNs) {
        if (windowNs < 1) {
            throw new IllegalArgumentException("a window must last at least 1 ns, got " + windowNs);
        }
        try (ScheduleRunner runner = new ScheduleRunner(scenario)) {
            long start = System.nanoTime();
            int workers = parallel > 1 && strategy.independent() ? parallel : 1;
            WindowHunt hunt = new WindowHunt(strategy, scenario.seed(), windowNs, budgetWindows, start, budgetSeconds, workers);
            if (workers == 1) {
                hunt.work(runner, 0);
                hunt.rethrow();
            } else {
                List<Thread> threads = new java.util.ArrayList<>();
                List<ScheduleRunner> runners = new java.util.ArrayList<>();
                for (int w = 0; w < workers; w++) {
                    ScheduleRunner r = w == 0 ? runner : new ScheduleRunner(scenario.copy());
                    runners.add(r);
                    int worker = w;
                    threads.add(Thread.ofPlatform().name("pvtlb-windows-" + w).start(() -> hunt.work(r, worker)));
                }
                try {
                    for (Thread t : threads) {
                        t.join();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    for (int w = 1; w < runners.size(); w++) {
                        runners.get(w).close();
                    }
                }
                hunt.rethrow();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            ScheduleRun found = hunt.found();
            if (found == null) {
                return new ExploreResult(strategy.name(), hunt.windows(), seconds, false, null, 0, List.of(), 0, List.of(),
                        explored()).inWindows(hunt.bases(), false);
            }
            ScheduleRun small = new Shrinker(runner).shrink(found);
            ScheduleRun readable = runner.run(new ReplaySource(small.choices(), true), TRACE_LINES);
            Hazard h = readable.found() ? readable.hazard() : small.hazard();
            return new ExploreResult(strategy.name(), hunt.windows(), seconds, false, h, hunt.foundAt(), small.choices(),
                    readable.steps(), readable.stepLog(), explored()).inWindows(hunt.bases(), hunt.foundByBaseRun());
        }
    }

    private ExploreResult.Explored explored() {
        return new ExploreResult.Explored(scenario.name(), scenario.backend(), scenario.seed(), scenario.settings());
    }

    /**
     * Replays the schedule of trace file {@code t} in its scenario ({@link TraceFile#toScenario}),
     * strictly and with the step log on; {@link TraceFile#reproducedBy} says whether it hit the
     * recorded hazard again.
     */
    public static ScheduleRun replay(TraceFile t) {
        return new Explorer(t.toScenario()).replay(t.choices());
    }

    /** Replays {@code choices} strictly, with the step log on. */
    public ScheduleRun replay(List<Choice> choices) {
        return replay(choices, null);
    }

    /**
     * Replays {@code choices} strictly, with the step log on; {@code watch} (null: none) is handed
     * the booted guest before the workload starts (to record a timeline of the schedule, say).
     */
    public ScheduleRun replay(List<Choice> choices, Consumer<Guest> watch) {
        try (ScheduleRunner runner = new ScheduleRunner(scenario)) {
            return runner.run(new ReplaySource(choices, true), TRACE_LINES, watch);
        }
    }

    public static Strategy strategy(String name, long seed, int depth, int bound) {
        return switch (name) {
            case "random" -> new RandomStrategy(seed);
            case "pct" -> new PctStrategy(seed, depth);
            case "exhaustive" -> new ExhaustiveStrategy(bound);
            default -> throw new dev.pvtlb.model.ModelException("unknown strategy '" + name + "' (random, pct, exhaustive)");
        };
    }
}

package dev.pvtlb.explore;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.Branch;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.run.Scenario;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Runs one schedule of a scenario: boots its guest with the schedule's chooser, sets up the
 * workload, runs until the first hazard (the run stops there) or the end. The guest
 * configuration is built once and reused for every schedule. Public for the JMH benchmark
 * of one schedule; the explorer is the one user in the model.
 */
public final class ScheduleRunner implements AutoCloseable {
    /** Bound on steps of one schedule: a catalogue scenario needs a few thousand. */
    static final long MAX_STEPS = 5_000_000;

    private final Scenario scenario;
    private final GuestConfig config;
    /** One guest for every schedule, reset between them (booting one per schedule costs more than the run). */
    private Kernel guest;

    public ScheduleRunner(Scenario scenario) {
        this.scenario = scenario;
        this.config = scenario.guestConfig(0);
    }

    Scenario scenario() {
        return scenario;
    }

    public ScheduleRun run(ChoiceSource source, int logLines) {
        return run(source, logLines, null);
    }

    /**
     * Runs one schedule; {@code watch} (null: none) is handed the guest after its boot or reset
     * and before the workload is set up, to subscribe to what the run does.
     */
    public ScheduleRun run(ChoiceSource source, int logLines, Consumer<Guest> watch) {
        RecordingChooser chooser = new RecordingChooser(source);
        Kernel g = fresh(chooser);
        StepLog log = logLines > 0 ? new StepLog(logLines) : null;
        if (log != null) {
            g.stepLog(log);
        }
        Hazard[] first = stopAtFirstHazard(g);
        if (watch != null) {
            watch.accept((Guest) g.facade());
        }
        scenario.setUp((Guest) g.facade());
        g.engine().run(Long.MAX_VALUE, MAX_STEPS);
        return new ScheduleRun(List.copyOf(chooser.taken()), first[0], g.engine().steps(),
                log == null ? List.of() : log.lines());
    }

    /**
     * Told each window's run as it ends: {@code window} holds the window's own choices, which
     * follow the first {@code prefix} choices of {@code base} ({@link #whole} joins them); returns
     * false to end the whole run there.
     */
    @FunctionalInterface
    public interface WindowListener {
        boolean window(ScheduleRun window, List<Choice> base, int prefix);

        /** Asked before each window: false ends the whole run there, the window not run (a budget spent). */
        default boolean next() {
            return true;
        }
    }

    /** A window's run with the base run's choices before its own: what replaying from boot runs. */
    public static ScheduleRun whole(ScheduleRun window, List<Choice> base, int prefix) {
        List<Choice> all = new java.util.ArrayList<>(prefix + window.choices().size());
        all.addAll(base.subList(0, prefix));
        all.addAll(window.choices());
        return new ScheduleRun(List.copyOf(all), window.hazard(), window.steps(), window.stepLog());
    }

    /**
     * Runs schedule {@code base} from boot as {@link #run} does, and at each checkpoint (the step
     * that started a flush of other CPUs' TLBs, however the backend sends it) branches the run
     * {@code perCheckpoint} times: each branch is a copy of the whole model (Branch) run for
     * {@code windowNs} of virtual time with its choices from {@code windows} (numbered from
     * {@code firstWindow} on), the base run going on afterwards as if no branch had run. A window's
     * {@link ScheduleRun} carries the base's choices up to the checkpoint followed by its own, so
     * replaying those from boot ({@link #run} with a ReplaySource) is the same run. Returns the base
     * run; it ends early at its own first hazard or when the listener says so.
     */
    public ScheduleRun runWindows(ChoiceSource base, long windowNs, int perCheckpoint, IntFunction<ChoiceSource> windows,
                                  long firstWindow, WindowListener listener) {
        RecordingChooser chooser = new RecordingChooser(base);
        Kernel g = fresh(chooser);
        Hazard[] first = stopAtFirstHazard(g);
        scenario.setUp((Guest) g.facade());
        long flushes = flushesStarted(g);
        long next = firstWindow;
        boolean going = true;
        while (going && first[0] == null && g.engine().steps() < MAX_STEPS) {
            long before = g.engine().steps();
            g.engine().run(Long.MAX_VALUE, 1);
            if (g.engine().steps() == before) {
                break; // nothing left to run
            }
            long f = flushesStarted(g);
            if (f == flushes || first[0] != null) {
                continue;
            }
            flushes = f;
            for (int i = 0; i < perCheckpoint && going; i++) {
                if (!listener.next()) {
                    going = false;
                    break;
                }
                ScheduleRun w = window(g, windows.apply((int) Math.min(next++, Integer.MAX_VALUE)), windowNs);
                going = listener.window(w, chooser.taken(), chooser.taken().size());
            }
        }
        return new ScheduleRun(List.copyOf(chooser.taken()), first[0], g.engine().steps(), List.of());
    }

    /**
     * Handed each window's start time and guest as the window ends, before its writes are undone
     * (for tests of branching); null: none.
     */
    java.util.function.ObjLongConsumer<Kernel> windowEnd;

    /** The guest the last run used (for tests). */
    Kernel guest() {
        return guest;
    }

    /** Runs {@code source} from boot until virtual time {@code untilNs} and hands the guest to {@code end}. */
    void runTo(ChoiceSource source, long untilNs, Consumer<Kernel> end) {
        RecordingChooser chooser = new RecordingChooser(source);
        Kernel g = fresh(chooser);
        scenario.setUp((Guest) g.facade());
        g.engine().run(untilNs, MAX_STEPS);
        end.accept(g);
    }

    /** One branch of {@code g} run for {@code windowNs}, with its own choices. */
    private ScheduleRun window(Kernel g, ChoiceSource source, long windowNs) {
        RecordingChooser chooser = new RecordingChooser(source);
        try (Branch b = Branch.of(g, chooser)) {
            Kernel k = b.kernel();
            Hazard[] first = stopAtFirstHazard(k);
            long start = k.engine().now();
            k.engine().run(start + windowNs, MAX_STEPS);
            if (windowEnd != null) {
                windowEnd.accept(k, start);
            }
            return new ScheduleRun(List.copyOf(chooser.taken()), first[0], k.engine().steps(), List.of());
        }
    }

    /** Flushes of other CPUs' TLBs started so far: by IPI, by hypercall, by broadcast or by remote action request. */
    private static long flushesStarted(Kernel g) {
        dev.pvtlb.stats.VmStat v = g.vmstat();
        return v.get(dev.pvtlb.stats.Counter.NR_TLB_REMOTE_FLUSH) + v.get(dev.pvtlb.stats.Counter.HYPERVISOR_FLUSHES)
                + v.get(dev.pvtlb.stats.Counter.BROADCAST_FLUSHES) + v.get(dev.pvtlb.stats.Counter.REMOTE_ACTION_REQUESTS);
    }

    /** The guest booted, or the one booted before reset, with {@code chooser} answering its choices. */
    private Kernel fresh(RecordingChooser chooser) {
        if (guest == null) {
            guest = KernelBoot.boot(config, chooser);
        } else {
            guest.reset(chooser);
        }
        return guest;
    }

    /** Stops {@code g}'s run at its first hazard, which the returned cell then holds. */
    private static Hazard[] stopAtFirstHazard(Kernel g) {
        Hazard[] first = {null};
        g.hazards().listener(h -> {
            if (first[0] == null) {
                first[0] = h;
                g.engine().stop();
            }
        });
        return first;
    }

    @Override
    public void close() {
        if (guest != null) {
            guest.close();
            guest = null;
        }
    }
}

package dev.pvtlb.explore;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.run.Scenario;
import java.util.List;
import java.util.function.Consumer;

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
        Kernel g = guest;
        if (g == null) {
            g = KernelBoot.boot(config, chooser);
            guest = g;
        } else {
            g.reset(chooser);
        }
        StepLog log = logLines > 0 ? new StepLog(logLines) : null;
        if (log != null) {
            g.stepLog(log);
        }
        Hazard[] first = {null};
        Kernel run = g;
        g.hazards().listener(h -> {
            if (first[0] == null) {
                first[0] = h;
                run.engine().stop();
            }
        });
        if (watch != null) {
            watch.accept((Guest) g.facade());
        }
        scenario.setUp((Guest) g.facade());
        g.engine().run(Long.MAX_VALUE, MAX_STEPS);
        return new ScheduleRun(List.copyOf(chooser.taken()), first[0], g.engine().steps(),
                log == null ? List.of() : log.lines());
    }

    @Override
    public void close() {
        if (guest != null) {
            guest.close();
            guest = null;
        }
    }
}

package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.ScheduleRun;
import dev.pvtlb.explore.TraceFile;
import dev.pvtlb.model.InputFile;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb replay FILE}: re-runs a trace written by explore. Exit 1 when the recorded
 * hazard happens again; a file that was changed, or a run that does not reproduce it, is an
 * error (exit 2), never a silent different run.
 */
@Command(name = "replay", description = "Re-run a hazard trace written by 'pvtlb explore --trace'.")
final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Largest trace read: a shrunk trace is a few kilobytes, an unshrunk one of a long run a few megabytes. */
    static final int MAX_BYTES = 64 << 20;

    @Parameters(index = "0", paramLabel = "FILE", description = "a trace file")
    Path file;

    @Mixin
    TimelineOption timeline;

    @picocli.CommandLine.Option(names = "--backend-jar", paramLabel = "F", description = "a jar that registers the trace's "
            + "backend, for a trace of a design not on the class path (pvtlb assess --backend-jar)")
    Path backendJar;

    @Override
    public Integer call() throws IOException {
        timeline.check();
        if (backendJar != null) {
            dev.pvtlb.pvops.PvBackends.register(backendJar);
        }
        TraceFile t = TraceFile.parse(InputFile.read(file, "trace file", MAX_BYTES));
        Scenario s = ScenarioArgs.build(t.scenario(), t.backend(), t.settings(), t.seed(), null);
        ScheduleRun r = new Explorer(s).replay(t.choices(), timeline::watch);
        PrintWriter out = spec.commandLine().getOut();
        if (!t.reproducedBy(r)) {
            throw new ModelException("replay did not reproduce the recorded " + t.kind() + " on cpu" + t.cpu() + " at "
                    + t.timeNs() + " ns (got: " + (r.found() ? r.hazard() : "no hazard") + ")");
        }
        out.println("reproduced: " + r.hazard());
        out.println();
        out.println("trace (last steps before the violation):");
        r.stepLog().forEach(l -> out.println("  " + l));
        if (timeline.write("replay", s, "the replayed schedule of the hazard")) {
            out.println();
            out.println("timeline written to " + timeline.file + " (open it in ui.perfetto.dev or chrome://tracing)");
        }
        return 1;
    }
}

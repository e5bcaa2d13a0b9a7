package dev.pvtlb.cli;

import dev.pvtlb.Guest;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.report.Timeline;
import dev.pvtlb.report.TimelineJson;
import dev.pvtlb.run.Scenario;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --timeline FILE} of run, explore and replay (a picocli mixin, so the three parse and
 * describe it alike): records one guest's timeline (a run's first repetition, the schedule
 * replayed) and writes it as Trace Event Format JSON for Perfetto or chrome://tracing.
 */
final class TimelineOption {
    @Option(names = "--timeline", paramLabel = "FILE",
            description = "write a timeline (Trace Event Format JSON: open it in ui.perfetto.dev or chrome://tracing)")
    Path file;

    private Timeline timeline;

    /** Refuses an unwritable file before any work. */
    void check() {
        ReportFile.check(file, "--timeline");
    }

    /** Records {@code g}'s timeline if one is asked for and none is recorded yet. */
    void watch(Guest g) {
        if (file != null && timeline == null) {
            timeline = Timeline.of(g);
        }
    }

    /** Whether a timeline was asked for. */
    boolean wanted() {
        return file != null;
    }

    /**
     * Writes the recorded timeline of {@code s}, labelled with the command and what part of the
     * work it {@code shows}; returns whether one was written.
     */
    boolean write(String command, Scenario s, String shows) {
        if (file == null || timeline == null) {
            return false;
        }
        Map<String, String> about = new LinkedHashMap<>();
        about.put("command", "pvtlb " + command);
        about.put("scenario", s.name());
        about.put("backend", s.backend());
        about.put("seed", Long.toString(s.seed()));
        about.put("settings", String.join(" ", s.settings()));
        about.put("shows", shows);
        ReportFile.write(file, "--timeline", TimelineJson.write(timeline, about));
        return true;
    }
}

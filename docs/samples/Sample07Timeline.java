package samples;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.report.Timeline;
import dev.pvtlb.report.TimelineJson;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sample 7: a timeline of what each CPU did, as `pvtlb run --timeline` and `pvtlb explore
 * --timeline` write it. Runner.run hands each repetition's guest to a watch before its workload
 * starts; Timeline.of(guest) records the CPU time the model books (merged into slices), the IPIs
 * from one CPU to another, and the tracepoints; TimelineJson writes the Trace Event Format JSON
 * that ui.perfetto.dev and chrome://tracing open. The explorer does the same for the shrunk
 * schedule of a hazard it found, whose timeline ends with the hazard as an instant event.
 */
public final class Sample07Timeline {
    public static void main(String[] args) {
        // Two threads on two vCPUs, one munmap each: each munmap's shootdown IPIs the other CPU.
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("ops", "1");
        Timeline[] t = {null};
        Runner.run(s, (rep, reps, steps, ns) -> { }, (rep, guest) -> t[0] = Timeline.of(guest));

        Map<String, Integer> slices = new TreeMap<>();
        t[0].slices().forEach(x -> slices.merge("cpu" + x.cpu() + " " + x.name(), 1, Integer::sum));
        System.out.println("slices per CPU and category: " + slices);
        t[0].flows().forEach(f -> System.out.printf("%s: cpu%d at %d ns -> cpu%d at %d ns%n", f.kind(), f.from(), f.sentNs(), f.to(),
                f.arrivalNs()));
        String json = TimelineJson.write(t[0], Map.of("scenario", s.name()));
        System.out.println("Trace Event Format: " + json.lines().count() + " lines; the first events:");
        json.lines().skip(1).limit(3).forEach(l -> System.out.println("  " + l));

        // The explorer's hazard, replayed with a watch: the timeline of the schedule that found it.
        Scenario lazy = Scenario.of("lazy-speculative-walk").set("lazy", "skip-nofree").set("speculation", "on").seed(4);
        Explorer explorer = new Explorer(lazy);
        ExploreResult r = explorer.explore(new RandomStrategy(4), 200, 60);
        Timeline[] h = {null};
        explorer.replay(r.shrunk(), guest -> h[0] = Timeline.of(guest));
        h[0].marks().stream().filter(m -> m.name().equals("hazard"))
                .forEach(m -> System.out.printf("hazard instant on cpu%d at %d ns: %s%n", m.cpu(), m.timeNs(), m.detail()));
    }
}

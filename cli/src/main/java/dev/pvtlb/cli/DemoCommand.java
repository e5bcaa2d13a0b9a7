package dev.pvtlb.cli;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.SwimLanes;
import dev.pvtlb.report.Timeline;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb demo}: the README's first command. A short comparison of every registered
 * backend on one workload (munmap-storm, few operations), and one catalogue hazard hunted by the
 * schedule explorer (CVE-2019-3016: the KVM host clearing steal_time.preempted with a plain
 * write loses a guest's KVM_VCPU_FLUSH_TLB request). Writes pvtlb-demo.html with the charts.
 */
@Command(name = "demo", description = "Compare every backend on munmap-storm, hunt one catalogue hazard (kvm-preempted-flush), write pvtlb-demo.html.")
final class DemoCommand implements Callable<Integer> {
    static final String WORKLOAD = "munmap-storm";
    static final List<String> WORKLOAD_SETTINGS = List.of("ops=8", "threads=8");
    static final String HAZARD = "kvm-preempted-flush";
    static final String HAZARD_BACKEND = "kvm";
    static final List<String> HAZARD_SETTINGS = List.of("kvm.hostClearPreempted=plain-write");

    @Spec
    CommandSpec spec;

    @Option(names = "--html", paramLabel = "FILE", description = "where to write the page (default: pvtlb-demo.html)")
    Path html = Path.of("pvtlb-demo.html");

    @Option(names = "--seed", paramLabel = "N", description = "seed (default: 1)")
    long seed = 1;

    @Option(names = "--strategy", paramLabel = "S", description = "explorer strategy: random, pct, exhaustive (default: pct)")
    String strategy = "pct";

    @Option(names = "--hazard", paramLabel = "NAME", description = "catalogue scenario to explore (default: " + HAZARD + ")")
    String hazard = HAZARD;

    @Option(names = "--hazard-backend", paramLabel = "B", description = "its backend (default: " + HAZARD_BACKEND + ")")
    String hazardBackend = HAZARD_BACKEND;

    @Option(names = "--hazard-set", paramLabel = "KEY=VALUE", description = "its settings (default: kvm.hostClearPreempted=plain-write)")
    List<String> hazardSets = new java.util.ArrayList<>(HAZARD_SETTINGS);

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        ReportFile.check(html, "--html");
        PrintWriter out = spec.commandLine().getOut();
        // native first: the bare-metal baseline every other backend's change is measured against.
        List<String> names = new java.util.ArrayList<>(PvBackends.all().keySet());
        names.remove("native");
        names.add(0, "native");
        String backends = String.join(",", names);
        out.printf("1. every backend on %s (%s)%n%n", WORKLOAD, String.join(" ", WORKLOAD_SETTINGS));
        Comparison c = CompareCommand.compare(WORKLOAD, null, WORKLOAD_SETTINGS, seed, 1,
                CompareCommand.parse(List.of("backend=" + backends)), new ProgressBar(spec.commandLine().getErr(), quiet),
                Runtime.getRuntime().availableProcessors());
        c.print(out);
        out.printf("%n2. schedule exploration of %s on %s with %s%n", hazard, hazardBackend, String.join(" ", hazardSets));
        Scenario h = ScenarioArgs.build(hazard, hazardBackend, hazardSets, seed, 1);
        Explorer explorer = new Explorer(h);
        ExploreResult r = explorer.explore(Explorer.strategy(strategy, seed, 3, 2), 5000, 20.0);
        StringBuilder ex = new StringBuilder();
        if (r.safe()) {
            ex.append(String.format("no hazard in %d schedules (%s strategy)%n", r.schedules(), r.strategy()));
        } else {
            ex.append(String.format("hazard found at schedule %d of the %s strategy: %s%n", r.foundAt(), r.strategy(), r.hazard()));
            ex.append(String.format("shrunk to %d choices, %d steps; the steps before it:%n", r.shrunk().size(), r.shrunkSteps()));
            for (String line : r.trace()) {
                ex.append("  ").append(line).append('\n');
            }
        }
        out.print(ex);
        StringBuilder page = new StringBuilder();
        page.append(Html.head("pvtlb demo"));
        page.append(c.body("pvtlb demo: every backend on " + WORKLOAD));
        page.append("<h2>Schedule exploration: ").append(Html.escape(hazard)).append(" on ").append(Html.escape(hazardBackend))
                .append(" with ").append(Html.escape(String.join(" ", hazardSets))).append("</h2>\n");
        page.append(schedule(explorer, r));
        page.append("</body></html>\n");
        ReportFile.write(html, "--html", page.toString());
        out.printf("%nwrote %s%n", html);
        return 0;
    }

    /**
     * The explorer's verdict for the page: with a hazard, the shrunk schedule replayed as swim
     * lanes up to the violating access (marked), then the steps before it as a list.
     */
    private static String schedule(Explorer explorer, ExploreResult r) {
        StringBuilder b = new StringBuilder();
        if (r.safe()) {
            return b.append("<p>No hazard in ").append(r.schedules()).append(" schedules (").append(Html.escape(r.strategy()))
                    .append(" strategy).</p>\n").toString();
        }
        b.append("<p>Hazard found at schedule ").append(r.foundAt()).append(" of the ").append(Html.escape(r.strategy()))
                .append(" strategy, shrunk to ").append(r.shrunk().size()).append(" choices and ").append(r.shrunkSteps())
                .append(" steps:</p>\n<p class='hazard'><b>").append(Html.escape(r.hazard().toString())).append("</b></p>\n");
        Timeline[] recorded = {null};
        explorer.replay(r.shrunk(), g -> recorded[0] = Timeline.of(g));
        b.append(SwimLanes.beforeHazard(recorded[0], "the shrunk schedule, up to the violating access (red)"));
        b.append("<details><summary>the steps before it</summary>\n<ol class='steps'>\n");
        for (String line : r.trace()) {
            b.append("<li><code>").append(Html.escape(line.strip())).append("</code></li>\n");
        }
        return b.append("</ol></details>\n").toString();
    }
}

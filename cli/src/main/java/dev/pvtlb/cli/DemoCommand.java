package dev.pvtlb.cli;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.run.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * schedule explorer (gup_fast walking a page table that a hypercall flush let be freed at once:
 * xen-pv with tableFree=immediate). Writes pvtlb-demo.html with the charts.
 */
@Command(name = "demo", description = "Compare every backend on munmap-storm, hunt one catalogue hazard, write pvtlb-demo.html.")
final class DemoCommand implements Callable<Integer> {
    static final String WORKLOAD = "munmap-storm";
    static final List<String> WORKLOAD_SETTINGS = List.of("ops=8", "threads=8");
    static final String HAZARD = "gup-fast-vs-free";
    static final String HAZARD_BACKEND = "xen-pv";
    static final List<String> HAZARD_SETTINGS = List.of("tableFree=immediate");

    @Spec
    CommandSpec spec;

    @Option(names = "--html", paramLabel = "FILE", description = "where to write the page (default: pvtlb-demo.html)")
    Path html = Path.of("pvtlb-demo.html");

    @Option(names = "--seed", paramLabel = "N", description = "seed (default: 1)")
    long seed = 1;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        String backends = String.join(",", PvBackends.all().keySet());
        out.printf("1. every backend on %s (%s)%n%n", WORKLOAD, String.join(" ", WORKLOAD_SETTINGS));
        Comparison c = CompareCommand.compare(WORKLOAD, null, WORKLOAD_SETTINGS, seed, 1,
                CompareCommand.parse(List.of("backend=" + backends)), new ProgressBar(spec.commandLine().getErr(), quiet));
        c.print(out);
        out.printf("%n2. schedule exploration of %s on %s with %s%n", HAZARD, HAZARD_BACKEND, String.join(" ", HAZARD_SETTINGS));
        Scenario h = ScenarioArgs.build(HAZARD, HAZARD_BACKEND, HAZARD_SETTINGS, seed, 1);
        ExploreResult r = new Explorer(h).explore(Explorer.strategy("random", seed, 3, 0), 5000, 20.0);
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
        page.append("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>pvtlb demo</title>\n<style>"
                + "body{font-family:sans-serif;margin:2em;max-width:1100px}pre{background:#f6f6f6;padding:1em;overflow-x:auto}"
                + "svg{margin:0.5em 1em 0.5em 0}</style></head><body>\n");
        page.append(c.body("pvtlb demo: every backend on " + WORKLOAD));
        page.append("<h2>Schedule exploration: ").append(Fmt.html(HAZARD)).append(" on ").append(HAZARD_BACKEND)
                .append(" with ").append(Fmt.html(String.join(" ", HAZARD_SETTINGS))).append("</h2>\n<pre>")
                .append(Fmt.html(ex.toString())).append("</pre>\n</body></html>\n");
        Files.writeString(html, page.toString(), StandardCharsets.UTF_8);
        out.printf("%nwrote %s%n", html);
        return 0;
    }
}

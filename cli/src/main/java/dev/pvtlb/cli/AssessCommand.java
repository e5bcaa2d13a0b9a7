package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb assess}: the report card of one flush design, a backend by name or from a jar.
 * It answers pvtlb's two questions for it beside {@code native} and the shipped designs of its
 * kind ({@link DesignPeers}): what it costs ({@link DesignCost}: munmap-storm over thread counts
 * and, for a design that runs as a VM, over VMs per host), and whether it is safe
 * ({@link DesignSafety}: every catalogue entry explored under each table-free policy, each hazard
 * with its replayable trace). Text, JSON and one HTML page from the same runs.
 */
@Command(name = "assess", description = "A report card for one flush design: its cost beside native and the shipped designs "
        + "of its kind, and its safety on every catalogue entry under each table-free policy.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:assessed, no hazard", "1:assessed, a hazard was found (its trace written under --traces)",
            "2:bad input (an unknown backend, a bad jar, a jar without a backend, a backend that throws)", "3:internal error"})
final class AssessCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--backend", paramLabel = "B", description = "the design: a registered backend (pvtlb backends), or one of "
            + "those --backend-jar registers")
    String backend;

    @Option(names = "--backend-jar", paramLabel = "F", description = "a jar that registers pv_ops backends "
            + "(META-INF/services/dev.pvtlb.pvops.PvBackend); its backend is assessed (name it with --backend if it has several)")
    Path jar;

    @Option(names = "--threads", paramLabel = "N,N", split = ",", description = "munmap-storm thread counts (default: 2,4,8,16)")
    List<Integer> threads = new ArrayList<>(List.of(2, 4, 8, 16));

    @Option(names = "--vms", paramLabel = "N,N", split = ",", description = "VMs per host for a virtualized design (default: 1,2,3)")
    List<Integer> vms = new ArrayList<>(List.of(1, 2, 3));

    @Option(names = "--budget", paramLabel = "N", description = "schedules explored per catalogue entry and policy (default: 2000)")
    long budget = 2000;

    @Option(names = "--seconds", paramLabel = "S", description = "at most S seconds per exploration (default: 60; the schedule "
            + "budget normally ends it first, so the output is the same on any machine)")
    double seconds = 60;

    @Option(names = "--seed", paramLabel = "N", description = "seed of every run and exploration (default: 1)")
    long seed = 1;

    @Option(names = "--traces", paramLabel = "DIR", description = "where each hazard's trace goes, for pvtlb replay "
            + "(default: pvtlb-assess-traces)")
    Path traces = Path.of("pvtlb-assess-traces");

    @Option(names = "--json", paramLabel = "FILE", description = "write {\"backend\", \"cost\", \"safety\"}")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML page with SVG charts")
    Path html;

    @Option(names = "--parallel", paramLabel = "N", description = "runs at once (default: the number of cores)")
    Integer parallel;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        ReportFile.check(json, "--json");
        ReportFile.check(html, "--html");
        if (budget < 1 || !(seconds > 0) || Double.isInfinite(seconds)) {
            throw new ModelException("--budget must be >= 1 and --seconds a number > 0");
        }
        int cores = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
        if (cores < 1) {
            throw new ModelException("--parallel must be at least 1, got " + cores);
        }
        checkCounts("--threads", threads, 1, 1024);
        checkCounts("--vms", vms, 1, 8);
        String name = backend;
        if (jar != null) {
            List<String> names = PvBackends.register(jar);
            if (name == null && names.size() != 1) {
                throw new ModelException("backend jar " + jar + " registers " + names.size() + " backends (" + String.join(", ", names)
                        + "): name the design with --backend");
            }
            if (name == null) {
                name = names.get(0);
            }
        } else if (name == null) {
            throw new ModelException("give the design: --backend B or --backend-jar F");
        }
        PvBackend b = PvBackends.byName(name);
        List<String> peers = DesignPeers.of(b);
        PrintWriter out = spec.commandLine().getOut();
        ProgressBar progress = new ProgressBar(spec.commandLine().getErr(), quiet);
        DesignCost cost;
        DesignSafety safety;
        try {
            cost = DesignCost.run(b, peers, threads, b.virtualized() ? vms : List.of(), seed, progress, cores);
            safety = DesignSafety.run(b.name(), jar, budget, seconds, seed, traces);
        } catch (ModelException e) {
            throw e;
        } catch (RuntimeException e) {
            // A design's own code that throws is the design's fault, not the model's: one line, as for bad input.
            throw new ModelException("backend " + b.name() + " failed: " + e.getClass().getSimpleName() + ": "
                    + ModelException.firstLine(String.valueOf(e.getMessage())));
        }
        out.printf("assess %s: %s%n", b.name(), b.description());
        out.printf("runs %s; compared with %s%n%n", b.virtualized() ? "as a VM on the host model" : "on bare metal",
                String.join(", ", peers));
        cost.print(out);
        out.println();
        safety.print(out);
        if (json != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("backend", b.name());
            m.put("description", b.description());
            m.put("virtualized", b.virtualized());
            m.put("compared_with", peers);
            m.put("seed", seed);
            m.put("cost", cost.toMap());
            m.put("safety", safety.toMap());
            ReportFile.write(json, "--json", Json.write(m));
        }
        if (html != null) {
            String title = "pvtlb assess " + b.name();
            ReportFile.write(html, "--html", dev.pvtlb.report.Html.head(title) + "<h1>" + dev.pvtlb.report.Html.escape(title) + "</h1>\n<p>"
                    + dev.pvtlb.report.Html.escape(b.description()) + "; compared with " + dev.pvtlb.report.Html.escape(String.join(", ", peers))
                    + ".</p>\n" + cost.toHtml() + safety.toHtml() + "</body></html>\n");
        }
        return safety.hazards() == 0 ? 0 : 1;
    }

    private static void checkCounts(String option, List<Integer> counts, int low, int high) {
        if (counts.isEmpty()) {
            throw new ModelException(option + ": give at least one count");
        }
        for (int n : counts) {
            if (n < low || n > high) {
                throw new ModelException(option + ": " + n + " is outside " + low + ".." + high);
            }
        }
        if (counts.stream().distinct().count() != counts.size()) {
            throw new ModelException(option + ": a count is given twice");
        }
    }
}

package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb mutants}: the mutation test ({@link MutationTable}) from the command line, with the
 * table as text, Markdown (docs/mutation.md is this command's output) or JSON.
 */
@Command(name = "mutants", description = "The mutation test: plant each inject= bug in turn and hunt it with every catalogue "
        + "entry, the torture workload and every built-in workload; print which find it.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the table was made", "2:bad input", "3:internal error"})
final class MutantsCommand implements Callable<Integer> {
    /** The block of docs/mutation.md this command writes. */
    static final GeneratedBlock BLOCK = GeneratedBlock.of("pvtlb mutants --markdown");

    @Spec
    CommandSpec spec;

    @Option(names = "--bugs", split = ",", paramLabel = "B,B", description = "the bugs (default: all ten)")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--backends", split = ",", paramLabel = "B,B", description = "hunt every bug on each of these backends, a row "
            + "each (default: each bug's own: the kernel's on native, kvm-entry-drops-flush on kvm, the host's and rcu-gp-instant on xen-pv)")
    List<String> backends = new ArrayList<>();

    @Option(names = "--workloads", split = ",", paramLabel = "W,W", description = "the workload columns (default: tlb-torture and "
            + "every built-in workload that is not a catalogue entry)")
    List<String> workloads = new ArrayList<>();

    @Option(names = "--budget", paramLabel = "N", description = "schedules per catalogue entry (default: 300)")
    long budget = 300;

    @Option(names = "--workload-budget", paramLabel = "N", description = "schedules per workload (default: 50)")
    long workloadBudget = 50;

    @Option(names = "--seconds", paramLabel = "S", description = "at most S seconds per hunt (default: 300; a hunt the cap ended is "
            + "marked -(N), so the table is the same on any machine while the budgets end every hunt)")
    double seconds = 300;

    @Option(names = "--seed", paramLabel = "N", description = "scenario and strategy seed (default: 1)")
    long seed = 1;

    @Option(names = "--markdown", paramLabel = "FILE", description = "write the table as Markdown; into the block "
            + "between the generated-block markers when FILE has one (./pvtlb mutants --markdown docs/mutation.md refreshes that page), "
            + "else as the whole file")
    Path markdown;

    @Option(names = "--json", paramLabel = "FILE", description = "write {\"rows\": [{\"bug\", \"backend\", \"catalogue\", \"workloads\"}]}")
    Path json;

    @Option(names = "--parallel", paramLabel = "N", description = "hunts at once (default: the number of cores; the same table for any N)")
    Integer parallel;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Override
    public Integer call() throws IOException, InterruptedException {
        ReportFile.check(markdown, "--markdown");
        ReportFile.check(json, "--json");
        if (budget < 1 || workloadBudget < 1 || !(seconds > 0) || Double.isInfinite(seconds)) {
            throw new ModelException("--budget and --workload-budget must be >= 1 and --seconds a number > 0");
        }
        int cores = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
        if (cores < 1 || cores > 256) {
            throw new ModelException("--parallel must be between 1 and 256, got " + cores);
        }
        List<InjectedBug> chosen = new ArrayList<>();
        for (String b : bugs) {
            try {
                InjectedBug bug = InjectedBug.of(b);
                if (bug == InjectedBug.NONE || chosen.contains(bug)) {
                    throw new IllegalArgumentException(b);
                }
                chosen.add(bug);
            } catch (IllegalArgumentException e) {
                throw new ModelException("--bugs: '" + b + "' is not a bug to plant, or is given twice (bugs: "
                        + String.join(", ", java.util.Arrays.stream(InjectedBug.values()).filter(x -> x != InjectedBug.NONE)
                                .map(x -> x.value).toList()) + ")");
            }
        }
        if (chosen.isEmpty()) {
            java.util.Arrays.stream(InjectedBug.values()).filter(x -> x != InjectedBug.NONE).forEach(chosen::add);
        }
        List<String> chosenBackends = backends.stream().map(b -> PvBackends.byName(b).name()).distinct().toList();
        List<String> columns = workloads.isEmpty() ? MutationTable.defaultWorkloads() : workloads;
        for (String w : columns) {
            ScenarioArgs.build(w, null, List.of(), null, null); // an unknown name is refused here, in one line
        }
        if (columns.stream().distinct().count() != columns.size()) {
            throw new ModelException("--workloads: a workload is given twice");
        }
        MutationTable t = MutationTable.run(chosen, chosenBackends, columns, budget, workloadBudget, seconds, seed, cores,
                new ProgressBar(spec.commandLine().getErr(), quiet));
        t.print(spec.commandLine().getOut());
        if (markdown != null) {
            ReportFile.write(markdown, "--markdown", BLOCK.into(GeneratedBlock.read(markdown, "--markdown"), t.toMarkdown(seed)));
        }
        if (json != null) {
            java.util.Map<String, Object> m = t.toMap();
            m.put("seed", seed);
            ReportFile.write(json, "--json", Json.write(m));
        }
        return 0;
    }
}

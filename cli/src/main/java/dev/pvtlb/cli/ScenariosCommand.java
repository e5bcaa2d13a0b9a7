package dev.pvtlb.cli;

import dev.pvtlb.run.ScenarioInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code pvtlb scenarios}: the built-in workloads with their parameters. */
@Command(name = "scenarios", description = "List built-in scenarios and their parameters.")
final class ScenariosCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        for (ScenarioInfo w : ScenarioInfo.all()) {
            out.printf("%-22s %s%n", w.name(), w.description());
            w.parameters().forEach((k, v) -> out.printf("    %-16s default %s%n", k, v));
        }
        return 0;
    }
}

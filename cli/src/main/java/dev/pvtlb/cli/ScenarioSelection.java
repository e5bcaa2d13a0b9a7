package dev.pvtlb.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * SCENARIO, {@code --backend} and {@code --set}: how {@code pvtlb run} and {@code pvtlb compare}
 * name the scenario they start from (a picocli mixin, so both parse and describe them alike).
 */
final class ScenarioSelection {
    @Parameters(index = "0", paramLabel = "SCENARIO",
            description = "a built-in scenario name (see 'pvtlb scenarios') or a scenario file (.yaml, see docs/scenarios.md)")
    String scenario;

    @Option(names = "--backend", paramLabel = "B", description = "pv_ops backend (default: the scenario's, else native)")
    String backend;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a machine key, workload parameter or knob")
    List<String> sets = new ArrayList<>();
}

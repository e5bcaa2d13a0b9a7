package dev.pvtlb.cli;

import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code pvtlb backends}: every registered pv_ops backend with its knobs and their defaults. */
@Command(name = "backends", description = "List the pv_ops backends (built-in and from jars on the class path) and their knobs.")
final class BackendsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (PvBackend b : PvBackends.all().values()) {
            out.printf("%-10s %s%n", b.name(), b.description());
            out.printf("           runs %s%n", b.virtualized()
                    ? "as a VM on the host model (--set pcpus=N, --set vms=N)" : "on bare metal");
            for (KnobSpec k : b.knobs()) {
                knob(out, k);
            }
        }
        out.println();
        out.println("guest knobs (every backend; native's own):");
        for (KnobSpec k : KnobRegistry.common()) {
            knob(out, k);
        }
        if (!PvBackends.broken().isEmpty()) {
            out.println();
            out.println("providers on the class path that failed to load (left out):");
            PvBackends.broken().forEach(b -> out.println("    " + b));
        }
        return 0;
    }

    private static void knob(PrintWriter out, KnobSpec k) {
        out.printf("    %-24s [%s] %s: %s%n", k.name(), k.defaultValue(), String.join("|", k.allowed()), k.description());
    }
}

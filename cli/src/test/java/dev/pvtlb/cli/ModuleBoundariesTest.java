package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.ModuleBoundary;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The modules above guest on this module's class path (cli, report, study, native-bridge) use
 * guest through its API and SPI alone, never its {@code dev.pvtlb.internal} packages (issue 40):
 * what the command line does, an embedding program can do. The modules with a descriptor are
 * held to it by javac too; cli has none, and its jar runs on the class path.
 */
class ModuleBoundariesTest {
    private static final List<String> ABOVE_GUEST = List.of("dev.pvtlb.cli", "dev.pvtlb.report", "dev.pvtlb.study", "dev.pvtlb.nativebridge");

    @Test
    void cliReportStudyAndNativeBridgeNameNoInternalTypeOfGuest() {
        Set<String> modules = new TreeSet<>();
        for (String pkg : ABOVE_GUEST) {
            var main = ModuleBoundary.mainClasses(pkg);
            main.forEach(c -> modules.add(c.getPackageName().split("\\.")[2]));
            assertEquals(List.of(), ModuleBoundary.violations(pkg, main), pkg);
        }
        assertEquals(Set.of("cli", "report", "study", "nativebridge"), modules, "every module was imported");
    }

    /** A command that lists the catalogue through guest's internals, as the CLI did before ScenarioInfo. */
    static final class PlantedInternalUse {
        static int entries() {
            return Workloads.catalogue().size();
        }
    }

    @Test
    void aPlantedUseOfGuestsInternalsIsCaught() {
        List<String> v = ModuleBoundary.violations("dev.pvtlb.cli", PlantedInternalUse.class);
        assertTrue(!v.isEmpty() && v.stream().allMatch(d -> d.contains("dev.pvtlb.internal.workload.catalogue.Workloads")), v.toString());
    }
}

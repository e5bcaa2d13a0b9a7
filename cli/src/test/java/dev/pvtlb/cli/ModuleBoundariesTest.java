package dev.pvtlb.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The modules above guest (cli, report, study, native-bridge: all on this module's class path)
 * use guest through its API and SPI alone, never its {@code dev.pvtlb.internal} packages (issue 40):
 * what the command line does, an embedding program can do. The modules with a descriptor are held
 * to it by javac too; cli has none, and its jar runs on the class path.
 */
class ModuleBoundariesTest {
    private static final String[] ABOVE_GUEST = {"dev.pvtlb.cli", "dev.pvtlb.report", "dev.pvtlb.study", "dev.pvtlb.nativebridge"};

    static final ArchRule NO_INTERNALS = noClasses().that().resideInAnyPackage(packagesBelow(ABOVE_GUEST))
            .should().dependOnClassesThat().resideInAPackage("dev.pvtlb.internal..")
            .because("the modules above guest use its API and SPI only");

    private static String[] packagesBelow(String[] roots) {
        String[] out = new String[roots.length];
        for (int i = 0; i < roots.length; i++) {
            out[i] = roots[i] + "..";
        }
        return out;
    }

    @Test
    void cliReportStudyAndNativeBridgeNameNoInternalTypeOfGuest() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ABOVE_GUEST);
        Set<String> packages = new TreeSet<>();
        main.forEach(c -> packages.add(c.getPackageName().split("\\.")[2]));
        assertEquals(Set.of("cli", "report", "study", "nativebridge"), packages, "every module was imported");
        EvaluationResult r = NO_INTERNALS.evaluate(main);
        assertFalse(r.hasViolation(), String.join("\n", r.getFailureReport().getDetails()));
    }

    /** A command that lists the catalogue through guest's internals, as the CLI did before ScenarioInfo. */
    static final class PlantedInternalUse {
        static int entries() {
            return Workloads.catalogue().size();
        }
    }

    @Test
    void aPlantedUseOfGuestsInternalsIsCaught() {
        EvaluationResult r = NO_INTERNALS.evaluate(new ClassFileImporter().importClasses(PlantedInternalUse.class));
        List<String> details = r.getFailureReport().getDetails();
        assertTrue(r.hasViolation());
        assertTrue(details.stream().anyMatch(d -> d.contains("dev.pvtlb.internal.workload.catalogue.Workloads")), String.join("\n", details));
    }
}

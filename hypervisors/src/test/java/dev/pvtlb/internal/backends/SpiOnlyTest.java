package dev.pvtlb.internal.backends;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped backends use the SPI alone (issue 40): no class of this module names a type of
 * another module's {@code dev.pvtlb.internal} packages, so what they do a researcher's backend,
 * loaded from its own jar, can do too. The module descriptor holds it at compile time (guest
 * exports no internal package); this rule holds it for the class path, where the CLI's jar runs.
 */
class SpiOnlyTest {
    /** No class of the backends' package depends on a class of another module's internal packages. */
    static final ArchRule NO_FOREIGN_INTERNALS = noClasses().that().resideInAPackage("dev.pvtlb.internal.backends..")
            .should().dependOnClassesThat(DescribedPredicate.describe(
                    "are internal to another module",
                    c -> c.getPackageName().startsWith("dev.pvtlb.internal.")
                            && !c.getPackageName().startsWith("dev.pvtlb.internal.backends")))
            .because("a shipped backend reaches the model only through BackendContext, as a user's does");

    @Test
    void theShippedBackendsNameNoInternalTypeOfGuest() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.pvtlb.internal.backends");
        assertTrue(main.size() >= 20, "the backends were imported: " + main.size());
        EvaluationResult r = NO_FOREIGN_INTERNALS.evaluate(main);
        assertFalse(r.hasViolation(), String.join("\n", r.getFailureReport().getDetails()));
    }

    /** A backend class that casts the SPI's CPU to the kernel's executor, as the backends did before the SPI sufficed. */
    static final class PlantedCast {
        static int id(Cpu cpu) {
            return ((KernelCpu) cpu).id;
        }
    }

    @Test
    void aPlantedCastToTheKernelsCpuIsCaught() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedCast.class);
        EvaluationResult r = NO_FOREIGN_INTERNALS.evaluate(planted);
        assertTrue(r.hasViolation());
        List<String> details = r.getFailureReport().getDetails();
        assertTrue(details.stream().allMatch(d -> d.contains("PlantedCast")), String.join("\n", details));
        assertTrue(details.stream().anyMatch(d -> d.contains("dev.pvtlb.internal.kernel.KernelCpu")), String.join("\n", details));
    }
}

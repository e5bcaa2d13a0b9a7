package dev.pvtlb;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The rule every module above guest is held to (issue 40): its classes name no type of another
 * module's {@code dev.pvtlb.internal} packages, so what it does an embedding program or a
 * researcher's backend can do too. Each module's test applies it to its own main classes and to a
 * planted violation (in guest's test-jar, for hypervisors, cli, spark and samples).
 */
public final class ModuleBoundary {
    private ModuleBoundary() {}

    /** No class under {@code own} depends on an internal package other than one under {@code own}. */
    public static ArchRule rule(String own) {
        return noClasses().that().resideInAPackage(own + "..")
                .should().dependOnClassesThat(DescribedPredicate.describe("are internal to another module",
                        c -> c.getPackageName().startsWith("dev.pvtlb.internal.") && !c.getPackageName().startsWith(own)))
                .because("a module above guest uses its API and SPI only");
    }

    /** The main (non-test) classes under {@code packages}, from the class path. */
    public static JavaClasses mainClasses(String... packages) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(packages);
    }

    /** What {@link #rule} reports on {@code classes}: one line per violating dependency, empty when none. */
    public static List<String> violations(String own, JavaClasses classes) {
        return rule(own).evaluate(classes).getFailureReport().getDetails();
    }

    /** What {@link #rule} reports on one class (a planted violation, say). */
    public static List<String> violations(String own, Class<?> planted) {
        return violations(own, new ClassFileImporter().importClasses(planted));
    }
}

package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.ModuleBoundary;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Validation and calibration use guest through its API and SPI alone, never a
 * {@code dev.pvtlb.internal} package of another module (issue 40): an experiment is runs and
 * figures an embedding program could compute too. The descriptor holds the main code to it at
 * compile time; this test also covers the class path, where the command line runs the module.
 */
class ModuleBoundariesTest {
    @Test
    void validationNamesNoInternalTypeOfAnotherModule() {
        var main = ModuleBoundary.mainClasses("dev.pvtlb.validation");
        Set<String> packages = new TreeSet<>();
        main.forEach(c -> packages.add(c.getPackageName()));
        assertEquals(Set.of("dev.pvtlb.validation", "dev.pvtlb.validation.calibration"), packages, "both packages were imported");
        assertEquals(List.of(), ModuleBoundary.violations("dev.pvtlb.validation", main));
    }

    /** An experiment that lists the workloads through guest's internals instead of its API. */
    static final class PlantedInternalUse {
        static int workloads() {
            return Workloads.catalogue().size();
        }
    }

    @Test
    void aPlantedUseOfGuestsInternalsIsCaught() {
        List<String> v = ModuleBoundary.violations("dev.pvtlb.validation", PlantedInternalUse.class);
        assertTrue(!v.isEmpty() && v.stream().allMatch(d -> d.contains("dev.pvtlb.internal.workload.catalogue.Workloads")), v.toString());
    }
}

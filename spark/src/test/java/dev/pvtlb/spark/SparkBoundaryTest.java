package dev.pvtlb.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.ModuleBoundary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Spark job uses guest through its API alone (issue 40): no class of it names guest's internals. */
class SparkBoundaryTest {
    @Test
    void theSparkJobNamesNoInternalTypeOfGuest() {
        var main = ModuleBoundary.mainClasses("dev.pvtlb.spark");
        assertEquals(2, main.stream().filter(c -> !c.getName().contains("$")).count(), "SparkMain and SparkStudyExecutor");
        assertEquals(List.of(), ModuleBoundary.violations("dev.pvtlb.spark", main));
    }

    /** A Spark task that reads a guest's kernel directly: what the rule is there to refuse. */
    static final class PlantedKernelRead {
        static int cpus(Object guest) {
            return dev.pvtlb.internal.kernel.KernelBoot.of(guest).cpus().length;
        }
    }

    @Test
    void aPlantedReadOfTheKernelIsCaught() {
        List<String> v = ModuleBoundary.violations("dev.pvtlb.spark", PlantedKernelRead.class);
        assertTrue(!v.isEmpty() && v.stream().allMatch(d -> d.contains("dev.pvtlb.internal.kernel.Kernel")), v.toString());
    }
}

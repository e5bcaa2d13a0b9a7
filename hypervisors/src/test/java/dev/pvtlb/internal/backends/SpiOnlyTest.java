package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.ModuleBoundary;
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
    private static final String OWN = "dev.pvtlb.internal.backends";

    @Test
    void theShippedBackendsNameNoInternalTypeOfGuest() {
        var main = ModuleBoundary.mainClasses(OWN);
        assertTrue(main.size() >= 20, "the backends were imported: " + main.size());
        assertEquals(List.of(), ModuleBoundary.violations(OWN, main));
    }

    /** A backend that casts the SPI's CPU to the kernel's executor, as the backends did before the SPI sufficed. */
    static final class PlantedCast {
        static int id(Cpu cpu) {
            return ((KernelCpu) cpu).id;
        }
    }

    @Test
    void aPlantedCastToTheKernelsCpuIsCaught() {
        List<String> v = ModuleBoundary.violations(OWN, PlantedCast.class);
        assertTrue(!v.isEmpty() && v.stream().allMatch(d -> d.contains("PlantedCast")), v.toString());
        assertTrue(v.stream().anyMatch(d -> d.contains("dev.pvtlb.internal.kernel.KernelCpu")), v.toString());
    }
}

package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.ModuleBoundary;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The samples of docs/samples show what a user can write: none names an internal package of guest (issue 40). */
class SamplesBoundaryTest {
    @Test
    void noSampleNamesAnInternalTypeOfGuest() {
        var main = ModuleBoundary.mainClasses("samples");
        assertTrue(main.stream().filter(c -> c.getSimpleName().startsWith("Sample")).count() >= 5, "the samples were imported");
        assertEquals(List.of(), ModuleBoundary.violations("samples", main));
    }

    /** A sample that lists the catalogue through guest's internals instead of ScenarioInfo: what the rule refuses. */
    static final class PlantedCatalogueRead {
        static int entries() {
            return dev.pvtlb.internal.workload.catalogue.Workloads.catalogue().size();
        }
    }

    @Test
    void aPlantedUseOfGuestsInternalsIsCaught() {
        List<String> v = ModuleBoundary.violations("samples", PlantedCatalogueRead.class);
        assertTrue(!v.isEmpty() && v.stream().allMatch(d -> d.contains("dev.pvtlb.internal.workload.catalogue.Workloads")), v.toString());
    }
}

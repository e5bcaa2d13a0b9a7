package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.pvops.TableFreePolicy;
import org.junit.jupiter.api.Test;

/** Both benchmark methods, once, outside JMH: the generated class answers as the interface does. */
class PvOpsCallBenchTest {
    @Test
    void bothCallPathsReturnTheNativeBackendsPolicy() {
        PvOpsCallBench b = new PvOpsCallBench();
        b.setUp();
        try {
            assertEquals(TableFreePolicy.RCU, b.generatedPvOps());
            assertEquals(TableFreePolicy.RCU, b.plainInterface());
            assertTrue(b.generated.getClass().getName().endsWith("$$PvOps"), b.generated.getClass().getName());
        } finally {
            b.tearDown();
        }
    }
}

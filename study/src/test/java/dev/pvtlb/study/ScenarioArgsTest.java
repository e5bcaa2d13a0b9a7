package dev.pvtlb.study;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ScenarioArgs.check refuses before boot what boot would refuse: it resolves the knobs as boot does. */
class ScenarioArgsTest {
    private static void check(String backend, String... sets) {
        ScenarioArgs.check(ScenarioArgs.build("munmap-storm", backend, List.of(sets), null, null));
    }

    @Test
    void aKnobOfAnotherBackendIsRefusedBeforeBoot() {
        ModelException e = assertThrows(ModelException.class, () -> check("native", "kvm.boost=true"));
        assertEquals("knob kvm.boost belongs to backend kvm, not native (use --backend kvm)", e.getMessage());
    }

    @Test
    void theHostModelsKnobsAndAKernelPresetPassOnEveryBackend() {
        assertDoesNotThrow(() -> check("native", "host.scheduler=cfs", "host.balance=idle", "kernel=4.19"));
        assertDoesNotThrow(() -> check("kvm", "host.balance=idle", "kernel=5.2", "kvm.boost=false"));
        ModelException e = assertThrows(ModelException.class, () -> check("kvm", "host.scheduler=bogus"));
        assertEquals("knob host.scheduler cannot be 'bogus' (allowed: eevdf|cfs)", e.getMessage());
    }
}

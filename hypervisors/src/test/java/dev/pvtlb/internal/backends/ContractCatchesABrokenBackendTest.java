package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The contract can fail: run against broken-native (native_flush_tlb_multi() without the IPIs,
 * from guest's test sources, registered through the SPI like a user's backend), it reports the
 * stale translation a skipped CPU used.
 */
class ContractCatchesABrokenBackendTest {
    private final BackendContract contract = new BackendContract() {
        @Override
        String backend() {
            return "broken-native";
        }

        @Override
        void countersAddUp(Scripted s) {
        }
    };

    @Test
    void aBackendThatFlushesNoOtherCpuBreaksTheContract() {
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> contract.noTranslationIsUsedAfterItsFlushReturned(1, false));
        assertTrue(e.getMessage().contains("STALE_TRANSLATION"), e.getMessage());
    }
}

package dev.pvtlb.nativebridge.hostbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostBenchResultTest {
    private static HostBenchResult ran(int threads, Integer... cpus) {
        return new HostBenchResult("munmap-storm", "ffm", threads, List.of(cpus), 1, Duration.ofMillis(1),
                Map.of(), Map.of(), List.of());
    }

    @Test
    void remoteCpusFollowTheCrewPlacementAndSkipTheInitiatorsCpu() {
        assertEquals(List.of(1), ran(1, 0, 1).remoteCpus());
        assertEquals(List.of(1), ran(2, 0, 1).remoteCpus(), "the second thread wraps onto cpu0, the initiator's");
        assertEquals(List.of(0, 1, 3), ran(3, 2, 3, 1, 0).remoteCpus(), "threads take cpus[1..3]; cpu2 is the initiator's");
        assertEquals(List.of(), ran(1, 5).remoteCpus());
        assertEquals(List.of(), ran(0, 0).remoteCpus());
    }

    @Test
    void jsonListsTheRemoteCpus() {
        assertEquals(List.of(3), ran(2, 1, 3).toMap().get("remote_cpus"));
    }
}

package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each benchmark method once per backend, outside JMH: they call what they claim to. */
class NativeCallBenchTest {

    private static NativeCallBench bench(String bridge) {
        NativeCallBench b = new NativeCallBench();
        b.bridge = bridge;
        b.setUp();
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "jna"})
    void callsReachLibc(String bridge) {
        NativeCallBench b = bench(bridge);
        assertEquals(ProcessHandle.current().pid(), b.getpid());
        int cpu = b.schedGetcpu();
        assertTrue(cpu >= 0 && cpu < Runtime.getRuntime().availableProcessors(), "cpu " + cpu);
        long first = b.mmapMunmap();
        assertNotEquals(0L, first);
        assertEquals(0L, first % 4096, "mmap returns page-aligned addresses");
    }
}

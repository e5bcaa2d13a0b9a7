package dev.pvtlb.nativebridge.hostbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.pvtlb.nativebridge.NativeOs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The noise process runs on its CPU only, every thread of its JVM included: started from a
 * thread pinned to the victim's CPU, its compiler, GC and VM threads used to keep that CPU and
 * compete with the victim (what mprotect-noise's host slowdown measured).
 */
class NoiseProcessTest {
    private final NativeOs os = NativeOs.select("ffm");

    @Test
    void everyThreadOfTheNoiseJvmIsOnTheNoiseCpuEvenWhenStartedFromAThreadPinnedElsewhere() throws IOException {
        assumeTrue(os.onlineCpus() > 1, "needs a second CPU");
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "reads /proc");
        // Started as the bench starts it: from a thread pinned to the victim's CPU 0.
        try (NoiseProcess noise = PinnedCrew.callPinned(os, 0, () -> new NoiseProcess(os, 1, 1, "spin"))) {
            long pid = noise.pid();
            TreeSet<String> allowed = new TreeSet<>();
            int threads = 0;
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : tasks.toList()) {
                    List<String> status;
                    try {
                        status = Files.readAllLines(task.resolve("status"));
                    } catch (java.nio.file.NoSuchFileException gone) {
                        continue; // a thread that ended meanwhile
                    }
                    status.stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                            .forEach(l -> allowed.add(l.substring(l.indexOf(':') + 1).strip()));
                    threads++;
                }
            }
            assertTrue(threads > 5, "a JVM's threads: " + threads);
            assertEquals(List.of("1"), List.copyOf(allowed), "the CPUs each of the noise JVM's " + threads + " threads may run on");
        }
    }
}

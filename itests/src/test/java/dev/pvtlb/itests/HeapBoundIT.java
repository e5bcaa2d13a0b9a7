package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The speed issue's memory target: a 1024-vCPU guest with 1 GiB of guest memory runs in a
 * 2 GiB Java heap. The run is a 1024-thread flush storm across 64 processes in a JVM started
 * with -Xmx2g; an OutOfMemoryError would end it with a non-zero exit.
 */
class HeapBoundIT {
    @Test
    void aThousandAndTwentyFourVcpuGuestWithOneGibRunsInATwoGibHeap() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx2g"));
        cmd.addAll(LauncherFlags.read(ProjectFiles.launcher()));
        cmd.addAll(List.of("-jar", ProjectFiles.jar().toString(), "run", "munmap-storm", "--quiet",
                "--set", "vcpus=1024", "--set", "threads=1024", "--set", "processes=64", "--set", "memory=1024",
                "--set", "ops=4", "--set", "workset=16", "--set", "accesses=200", "--set", "pages=16"));
        Path out = Files.createTempFile("heap-bound", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the run did not end");
            String text = Files.readString(out, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), text);
            assertTrue(text.contains("hazards: none"), text);
            // 1024 threads x 4 munmaps, each a remote flush of the 15 other CPUs of its process.
            assertTrue(text.matches("(?s).*\\nnr_tlb_remote_flush +4096\\n.*"), text);
        } finally {
            Files.deleteIfExists(out);
        }
    }
}

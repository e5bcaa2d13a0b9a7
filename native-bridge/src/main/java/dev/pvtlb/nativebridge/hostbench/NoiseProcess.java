package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.NativeOs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link MprotectLoop} in a child JVM, started with this JVM's own class or module path, paused
 * until asked to flip, and stopped by closing its standard input (destroyed if it does not stop
 * within 2 s). Every thread of the child runs on its CPU only, as the model's noise task does.
 */
final class NoiseProcess implements AutoCloseable {
    private final Process process;

    /** {@code mode}: mprotect, or a control (spin, getpid); see MprotectLoop. */
    NoiseProcess(NativeOs os, int cpu, int pages, String mode) {
        String bridge = os.name();
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--enable-native-access=ALL-UNNAMED,dev.pvtlb.nativebridge");
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null && !modulePath.isEmpty() && MprotectLoop.class.getModule().isNamed()) {
            cmd.addAll(List.of("-p", modulePath, "-m", "dev.pvtlb.nativebridge/" + MprotectLoop.class.getName()));
        } else {
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), MprotectLoop.class.getName()));
        }
        cmd.addAll(List.of(Integer.toString(cpu), Integer.toString(pages), bridge, mode));
        // A child starts with the CPU mask of the thread that starts it, and the JVM's own threads
        // (compilers, GC, VM thread) keep that mask; MprotectLoop pins only its main thread. Started
        // from the bench's initiator, pinned to the victim's CPU, every other thread of the noise's
        // JVM ran on the victim's CPU: beside the mprotect loop the victim's reads slowed x0.95..x3.6,
        // and x0.8..x1.0 with them moved to the noise's CPU (taskset -a, 2026-12-02, a KVM guest).
        process = PinnedCrew.callPinned(os, cpu, () -> launch(cmd));
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (!"ready".equals(line)) {
                process.destroyForcibly();
                throw new IllegalStateException("the mprotect noise process did not start (exit "
                        + (process.waitFor(2, TimeUnit.SECONDS) ? process.exitValue() : -1) + ")");
            }
        } catch (IOException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the mprotect noise process did not start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the mprotect noise process", e);
        }
    }

    private static Process launch(List<String> cmd) {
        try {
            return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the mprotect noise process: " + e.getMessage(), e);
        }
    }

    /** The child's process id. */
    long pid() {
        return process.pid();
    }

    /** Starts ({@code true}) or pauses the flips; returns once the request is written. */
    void flipping(boolean on) {
        try {
            process.getOutputStream().write(on ? '1' : '0');
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new IllegalStateException("the mprotect noise process is gone: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

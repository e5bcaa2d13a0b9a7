package dev.pvtlb.nativebridge.hostbench;

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
 * within 2 s).
 */
final class NoiseProcess implements AutoCloseable {
    private final Process process;

    /** {@code mode}: mprotect, or a control (spin, getpid); see MprotectLoop. */
    NoiseProcess(int cpu, int pages, String bridge, String mode) {
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
        try {
            process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (!"ready".equals(line)) {
                process.destroyForcibly();
                throw new IllegalStateException("the mprotect noise process did not start (exit "
                        + (process.waitFor(2, TimeUnit.SECONDS) ? process.exitValue() : -1) + ")");
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the mprotect noise process: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the mprotect noise process", e);
        }
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

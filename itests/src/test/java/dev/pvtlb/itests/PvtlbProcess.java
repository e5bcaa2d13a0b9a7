package dev.pvtlb.itests;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code pvtlb ARGS} as a JVM of its own, as a user's command would be: what a command loads
 * with {@code --backend-jar} changes the backends its JVM knows, so a test that loads a jar does
 * not run the command in the test's JVM.
 */
final class PvtlbProcess {
    /** What the command did: its exit code, standard output and standard error. */
    record Ran(int code, String out, String err) {}

    private PvtlbProcess() {}

    /** Runs {@code pvtlb args} in {@code dir} with cli's jar and the launcher's JVM flags. */
    static Ran run(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(LauncherFlags.read(ProjectFiles.launcher()));
        cmd.addAll(List.of("-cp", ProjectFiles.jar().toString(), ProjectFiles.MAIN_CLASS));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Ran(p.waitFor(), out, Files.readString(err));
    }
}

package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LauncherFlagsTest {
    @Test
    void readsTheFlagsBetweenJavaAndJar() {
        String script = """
                #!/usr/bin/env bash
                java="$(find_java)"
                exec "$java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -jar "$jar" "$@"
                """;
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC"), LauncherFlags.parse(script));
    }

    @Test
    void leavesOutAnArrayOfHostOnlyFlags() {
        String script = "exec \"$java\" --enable-native-access=ALL-UNNAMED \"${aot_opts[@]}\" -jar \"$jar\" \"$@\"\n";
        assertEquals(List.of("--enable-native-access=ALL-UNNAMED"), LauncherFlags.parse(script));
    }

    @Test
    void refusesWhatOnlyAShellCouldExpand() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LauncherFlags.parse("exec \"$java\" $JAVA_OPTS -jar \"$jar\" \"$@\"\n"));
        assertTrue(e.getMessage().startsWith("launcher flag '$JAVA_OPTS' is not a literal"), e.getMessage());
    }

    @Test
    void theProjectsLauncherGivesTheFlagFfmNeeds() {
        // The native bridge calls restricted FFM methods; without this flag the JVM warns on stderr.
        assertTrue(LauncherFlags.read(ProjectFiles.launcher()).contains("--enable-native-access=ALL-UNNAMED"));
    }
}

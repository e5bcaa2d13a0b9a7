package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SharedLibsTest {
    private static final Path RT = Path.of("/ctx/rootfs/opt/pvtlb");

    /** Captured with `ldd rootfs/opt/pvtlb/bin/java` on Debian 12 (a jlink runtime of Temurin 25). */
    private static final String JAVA = """
            \tlinux-vdso.so.1 (0x00007ffd6c3f2000)
            \tlibjli.so => /ctx/rootfs/opt/pvtlb/bin/../lib/libjli.so (0x00007f1c2bc29000)
            \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1c2ba3e000)
            \tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f1c2ba39000)
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f1c2bc55000)
            """;

    /** Captured with `ldd rootfs/opt/pvtlb/lib/libjava.so`: its libjvm.so lives in lib/server. */
    private static final String LIBJAVA = """
            \tlinux-vdso.so.1 (0x00007ffc1f5e4000)
            \tlibjvm.so => not found
            \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f3a0e81b000)
            \t/lib64/ld-linux-x86-64.so.2 (0x00007f3a0ea41000)
            """;

    @Test
    void keepsHostLibrariesAndTheLoaderAndSkipsTheRuntimesOwn() {
        assertEquals(List.of(Path.of("/lib/x86_64-linux-gnu/libc.so.6"), Path.of("/lib/x86_64-linux-gnu/libdl.so.2"),
                Path.of("/lib64/ld-linux-x86-64.so.2")), SharedLibs.parse(JAVA, RT, Set.of("libjli.so"), RT.resolve("bin/java")));
    }

    @Test
    void acceptsNotFoundOnlyForALibraryTheRuntimeHas() {
        assertEquals(List.of(Path.of("/lib/x86_64-linux-gnu/libc.so.6"), Path.of("/lib64/ld-linux-x86-64.so.2")),
                SharedLibs.parse(LIBJAVA, RT, Set.of("libjvm.so"), RT.resolve("lib/libjava.so")));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SharedLibs.parse(LIBJAVA, RT, Set.of(), RT.resolve("lib/libjava.so")));
        assertTrue(e.getMessage().endsWith("libjvm.so not found on this host"), e.getMessage());
    }
}

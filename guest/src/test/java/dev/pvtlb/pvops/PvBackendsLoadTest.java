package dev.pvtlb.pvops;

import dev.pvtlb.internal.kernel.NativeBackend;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.ServiceConfigurationError;
import org.junit.jupiter.api.Test;

/**
 * A provider ServiceLoader cannot load (here: one whose constructor is not public) costs only
 * itself: the others still load, and the failure is kept as one line.
 */
class PvBackendsLoadTest {
    @Test
    void aProviderThatFailsToLoadIsLeftOutAndRemembered() {
        PvBackend nat = new NativeBackend.Provider();
        Iterable<PvBackend> found = () -> new Iterator<>() {
            int i;

            @Override
            public boolean hasNext() {
                return i < 2;
            }

            @Override
            public PvBackend next() {
                if (i >= 2) {
                    throw new NoSuchElementException();
                }
                if (i++ == 0) {
                    throw new ServiceConfigurationError("dev.pvtlb.pvops.PvBackend: com.example.Mine Unable to get public no-arg constructor\nmore");
                }
                return nat;
            }
        };
        List<String> failed = new ArrayList<>();
        assertEquals(List.of("native"), List.copyOf(PvBackends.load(found, failed).keySet()));
        assertEquals(List.of("dev.pvtlb.pvops.PvBackend: com.example.Mine Unable to get public no-arg constructor"), failed);
    }

    @Test
    void aServicesFileNamedAfterTheBaseClassIsReportedNotIgnored(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path services = dir.resolve("META-INF/services");
        java.nio.file.Files.createDirectories(services);
        java.nio.file.Files.writeString(services.resolve("dev.pvtlb.pvops.BackendProvider"), "com.example.Mine\n");
        try (java.net.URLClassLoader l = new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, null)) {
            assertEquals(List.of("file:" + services.resolve("dev.pvtlb.pvops.BackendProvider")
                    + ": ignored, ServiceLoader reads META-INF/services/dev.pvtlb.pvops.PvBackend (rename the file)"),
                    PvBackends.misnamedServiceFiles(l));
        }
        assertEquals(List.of(), PvBackends.misnamedServiceFiles(getClass().getClassLoader()), "this build's files are named right");
    }
}

package dev.pvtlb.nativebridge.probe;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Objects;

/** Roots of the captured and hand-made hosts under src/test/resources/fixtures (see its README). */
final class Fixtures {
    private Fixtures() {}

    static Path root(String name) {
        try {
            return Path.of(Objects.requireNonNull(Fixtures.class.getResource("/fixtures/" + name), name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static HostReport probe(String name) {
        return new HostProbe(root(name)).probe();
    }
}

package dev.pvtlb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface of the guest jar is what docs/api.md lists, no more and no less: every
 * public top-level type outside {@code dev.pvtlb.internal} is named there, so making a class
 * public (or adding one to an API package) is a decision that edits that page.
 */
class PublicApiTest {
    private static final Pattern LISTED = Pattern.compile("^- `(dev\\.pvtlb\\.[A-Za-z0-9_.]+)`");

    @Test
    void publicTypesOutsideInternalAreExactlyTheDocumentedApi() throws IOException, URISyntaxException {
        Path classes = Path.of(Guest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Set<String> actual = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String rel = classes.relativize(f).toString().replace('/', '.');
                if (!rel.endsWith(".class") || rel.contains("$") || rel.endsWith("package-info.class")
                        || rel.equals("module-info.class")) {
                    continue;
                }
                String name = rel.substring(0, rel.length() - ".class".length());
                if (name.startsWith("dev.pvtlb.internal.")) {
                    continue;
                }
                Class<?> c = loadQuietly(name);
                if (Modifier.isPublic(c.getModifiers())) {
                    actual.add(name);
                }
            }
        }
        Set<String> documented = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "api.md"))) {
            Matcher m = LISTED.matcher(line);
            if (m.find()) {
                documented.add(m.group(1));
            }
        }
        assertTrue(documented.size() > 10, "docs/api.md lists the API");
        List<String> undocumented = new ArrayList<>(actual);
        undocumented.removeAll(documented);
        List<String> gone = new ArrayList<>(documented);
        gone.removeAll(actual);
        assertEquals(List.of(), undocumented, "public outside dev.pvtlb.internal but not in docs/api.md");
        assertEquals(List.of(), gone, "in docs/api.md but not public in the guest jar");
    }

    /**
     * The module descriptor exports (to everyone) exactly the packages of the documented API,
     * and no internal package to any module (the shipped backends use the SPI alone).
     */
    @Test
    void moduleExportsTheDocumentedPackagesAndNoInternalOneToAnyModule() throws IOException, URISyntaxException {
        Path classes = Path.of(Guest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleDescriptor d;
        try (var in = Files.newInputStream(classes.resolve("module-info.class"))) {
            d = ModuleDescriptor.read(in);
        }
        assertEquals("dev.pvtlb.guest", d.name());
        Set<String> open = new TreeSet<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            // No qualified export: the shipped backends reach the model through the SPI alone, as a user's do.
            assertFalse(e.isQualified(), e.source() + " exported to " + e.targets());
            open.add(e.source());
        }
        Set<String> documented = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("..", "docs", "api.md"))) {
            Matcher m = LISTED.matcher(line);
            if (m.find()) {
                String type = m.group(1);
                documented.add(type.substring(0, type.lastIndexOf('.')));
            }
        }
        assertEquals(documented, open);
        assertTrue(d.opens().isEmpty(), "the guest opens nothing to reflection");
    }

    private static Class<?> loadQuietly(String name) {
        try {
            return Class.forName(name, false, PublicApiTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(name, e);
        }
    }
}

package dev.pvtlb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency counts between the layers in docs/ARCHITECTURE.md ("Layers"), computed from the
 * sources, never typed: import lines of main code from one layer naming a type of another. The
 * layers: the modules above guest, and guest's own five (API, config, SPI, shared below both, internal).
 * {@code docs/layer-counts.sh} rewrites the block; this test fails when the block and the code disagree.
 */
class LayerCountsTest {
    static final String BEGIN = "<!-- BEGIN generated: docs/layer-counts.sh -->";
    static final String END = "<!-- END generated -->";
    private static final Path ROOT = Path.of("..");
    private static final List<String> MODULES = List.of("guest", "hypervisors", "native-bridge", "report", "study", "cli", "spark");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(dev\\.pvtlb\\.[A-Za-z0-9_.]+);", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z0-9_.]+);", Pattern.MULTILINE);

    /** The layer a package belongs to. */
    static String layer(String pkg) {
        if (pkg.startsWith("dev.pvtlb.internal.backends")) {
            return "hypervisors";
        }
        if (pkg.startsWith("dev.pvtlb.internal")) {
            return "guest internal";
        }
        String rest = pkg.equals("dev.pvtlb") ? "" : pkg.substring("dev.pvtlb.".length()).split("\\.")[0];
        return switch (rest) {
            case "", "run", "explore", "junit" -> "guest API";
            case "pvops", "flush", "smp", "knob", "host" -> "guest SPI";
            case "config" -> "guest config";
            case "profile", "stats", "hazard", "model" -> "guest shared";
            case "nativebridge" -> "native-bridge";
            default -> rest; // report, study, cli, spark, bench
        };
    }

    /** The package of an imported name: its lower-case segments (a nested class's outer classes dropped). */
    static String packageOf(String imported) {
        StringBuilder b = new StringBuilder();
        for (String seg : imported.split("\\.")) {
            if (Character.isUpperCase(seg.charAt(0))) {
                break;
            }
            b.append(b.isEmpty() ? "" : ".").append(seg);
        }
        return b.toString();
    }

    /** Import lines from layer to layer (self-edges left out), in name order. */
    static Map<String, Map<String, Integer>> counts() throws IOException {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        for (String module : MODULES) {
            Path src = ROOT.resolve(module).resolve("src/main/java");
            List<Path> files;
            try (Stream<Path> s = Files.walk(src)) {
                files = s.filter(p -> p.toString().endsWith(".java") && !p.getFileName().toString().equals("module-info.java"))
                        .sorted().toList();
            }
            for (Path f : files) {
                String text = Files.readString(f);
                Matcher pm = PACKAGE.matcher(text);
                if (!pm.find()) {
                    continue;
                }
                String from = layer(pm.group(1));
                Matcher m = IMPORT.matcher(text);
                while (m.find()) {
                    String to = layer(packageOf(m.group(1)));
                    if (!to.equals(from)) {
                        out.computeIfAbsent(from, k -> new TreeMap<>()).merge(to, 1, Integer::sum);
                    }
                }
            }
        }
        return out;
    }

    static String table(Map<String, Map<String, Integer>> counts) {
        StringBuilder b = new StringBuilder("| from | to: import lines |\n|---|---|\n");
        counts.forEach((from, tos) -> {
            StringBuilder row = new StringBuilder();
            tos.forEach((to, n) -> row.append(row.isEmpty() ? "" : ", ").append(to).append(' ').append(n));
            b.append("| ").append(from).append(" | ").append(row).append(" |\n");
        });
        return b.toString();
    }

    @Test
    void theArchitecturePagesCountsAreTheCodes() throws IOException {
        Path doc = ROOT.resolve("docs/ARCHITECTURE.md");
        String text = Files.readString(doc);
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END, b);
        assertTrue(b >= 0 && e > b, "docs/ARCHITECTURE.md has the generated block");
        String want = "\n" + table(counts());
        if (Boolean.getBoolean("pvtlb.docs.write")) {
            Files.writeString(doc, text.substring(0, b + BEGIN.length()) + want + text.substring(e));
            return;
        }
        assertEquals(want, text.substring(b + BEGIN.length(), e), "run docs/layer-counts.sh");
    }

    @Test
    void noLayerOutsideGuestNamesGuestsInternals() throws IOException {
        Map<String, Map<String, Integer>> c = counts();
        for (String outside : List.of("hypervisors", "native-bridge", "report", "study", "cli", "spark")) {
            assertEquals(null, c.getOrDefault(outside, Map.of()).get("guest internal"), outside);
        }
    }
}

package dev.pvtlb.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every time a model path uses comes from the profile, with a source or an ASSUMED range (DESIGN
 * rule 5, "Costs are data"): no numeric time constant in the model's code, the guest's or the
 * hypervisors'. A new {@code static final long FOO_NS = 50} fails here with its file and line.
 */
class NoTimeConstantsInModelTest {
    static final Pattern TIME_CONSTANT = Pattern.compile(
            "static\\s+final\\s+(long|int|double)\\s+[A-Z0-9_]*_(NS|US|MS|PS)\\s*=\\s*[-0-9(]");

    static List<String> timeConstants(Path root) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = TIME_CONSTANT.matcher(lines.get(i));
                    if (m.find()) {
                        found.add(root.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        return found;
    }

    @Test
    void theModelHasNoNumericTimeConstant() throws IOException {
        List<String> found = new ArrayList<>(timeConstants(Path.of("src", "main", "java")));
        found.addAll(timeConstants(Path.of("..", "hypervisors", "src", "main", "java")));
        assertEquals(List.of(), found, "move each into the profile (x86-skylake.yaml) with its source or an ASSUMED range");
    }

    @Test
    void thePatternCatchesWhatItIsFor() {
        assertEquals(true, TIME_CONSTANT.matcher("    static final long PAUSE_NS = 50;").find());
        assertEquals(true, TIME_CONSTANT.matcher("private static final int LATENCY_US = 6_000;").find());
        assertEquals(false, TIME_CONSTANT.matcher("static final int SPIN_THRESHOLD = 1 << 15;").find());
        assertEquals(false, TIME_CONSTANT.matcher("long pauseNs = costs.pauseNs;").find());
    }
}

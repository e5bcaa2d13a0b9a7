package dev.pvtlb.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileTest {
    @Test
    void theBuiltInProfileDefinesEveryKey() {
        Profile p = Profile.load("x86-skylake");
        assertEquals(Profile.KEYS, p.values().keySet());
        assertEquals(100, p.ns("invlpg.ns"));
        assertEquals(33, p.integer("flush.ceiling.pages"));
        assertEquals(1300, p.ps("access.ns"));
    }

    @Test
    void itRemembersTheFiguresReadAndValuesCountsAsReadingThemAll() {
        Profile p = Profile.load("x86-skylake");
        assertEquals(java.util.Set.of(), p.keysRead());
        p.ns("invlpg.ns");
        p.integer("flush.ceiling.pages");
        p.ps("access.ns");
        assertEquals(java.util.Set.of("access.ns", "flush.ceiling.pages", "invlpg.ns"), p.keysRead());
        Profile copy = p.with(java.util.Map.of("invlpg.ns", 200.0), "test");
        assertEquals(java.util.Set.of(), copy.keysRead());
        p.values();
        assertEquals(Profile.KEYS, p.keysRead());
    }

    @Test
    void aUserProfileExtendsABuiltIn() {
        Profile p = Profile.parse("extends: x86-skylake\nname: mine\ninvlpg.ns: 250 # measured\n", "mine.yaml");
        assertEquals("mine", p.name());
        assertEquals(250, p.ns("invlpg.ns"));
        assertEquals(33, p.ns("flush.full.ns"));
    }

    @Test
    void errorsNameFileLineAndKey() {
        assertEquals("p.yaml:2: unknown profile key 'invlpg'", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg: 3\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: invlpg.ns must be a number, got 'fast'", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg.ns: fast\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: invlpg.ns must be between 0 and 1e12, got -1.0", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\ninvlpg.ns: -1\n", "p.yaml")).getMessage());
        assertEquals("p.yaml: profile lacks access.ns", assertThrows(ModelException.class,
                () -> Profile.parse("name: x\n", "p.yaml")).getMessage());
        assertThrows(ModelException.class, () -> Profile.load("no-such-profile"));
    }

    @Test
    void anAssumedFigureCarriesItsRangeAndAnExtendingProfileInheritsIt() {
        Profile p = Profile.parse("extends: x86-skylake\nname: mine\n# ASSUMED range: 100..400 (a guess)\ninvlpg.ns: 250\n"
                + "ipi.send.ns: 60 # measured here\n", "mine.yaml");
        assertEquals(new Profile.Range(100, 400), p.assumedRanges().get("invlpg.ns"));
        assertNull(p.assumedRanges().get("ipi.send.ns"), "a figure given without a range is no longer assumed");
        assertEquals(new Profile.Range(500, 2000), p.assumedRanges().get("fault.ns"));
        assertEquals(new Profile.Range(20, 150), Profile.load("x86-skylake").assumedRanges().get("ipi.send.ns"));
    }

    @Test
    void aRangeMustHoldItsValueAndStandAboveAFigure() {
        assertEquals("p.yaml:3: invlpg.ns = 500 lies outside its ASSUMED range 100.0..400.0", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\n# ASSUMED range: 100..400\ninvlpg.ns: 500\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: ASSUMED range is not followed by its key", assertThrows(ModelException.class,
                () -> Profile.parse("extends: x86-skylake\n# ASSUMED range: 100..400\n\ninvlpg.ns: 300\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:2: expected 'ASSUMED range: LOW..HIGH' with 0 <= LOW <= HIGH, got 'ASSUMED range: 400..100'",
                assertThrows(ModelException.class,
                        () -> Profile.parse("extends: x86-skylake\n# ASSUMED range: 400..100\ninvlpg.ns: 300\n", "p.yaml")).getMessage());
        assertEquals("p.yaml:1: ASSUMED range is not followed by a figure", assertThrows(ModelException.class,
                () -> Profile.parse("# ASSUMED range: 1..2\nextends: x86-skylake\n", "p.yaml")).getMessage());
    }

    /**
     * The lint behind the rule "an ASSUMED figure keeps a low..high range": every key that a
     * comment block calling it ASSUMED stands above (or, with no comment of its own, the group
     * above it) has a machine-readable range.
     */
    @Test
    void everyFigureTheBuiltInProfileCallsAssumedHasARange() throws IOException {
        String text;
        try (InputStream in = Profile.class.getResourceAsStream("/dev/pvtlb/profile/x86-skylake.yaml")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> assumed = new ArrayList<>();
        StringBuilder comment = new StringBuilder();
        boolean groupAssumed = false;
        for (String raw : text.split("\n", -1)) {
            String line = raw.strip();
            if (line.isEmpty()) {
                comment.setLength(0);
                groupAssumed = false;
            } else if (line.startsWith("#")) {
                comment.append(line).append('\n');
            } else {
                if (comment.length() > 0) {
                    groupAssumed = comment.indexOf("ASSUMED") >= 0;
                    comment.setLength(0);
                }
                String key = line.substring(0, line.indexOf(':')).strip();
                if (groupAssumed && !List.of("name", "arch").contains(key)) {
                    assumed.add(key);
                }
            }
        }
        Profile p = Profile.load("x86-skylake");
        assertEquals(assumed, List.copyOf(p.assumedRanges().keySet()));
        assertEquals(35, assumed.size(), assumed.toString());
        for (String k : assumed) {
            assertTrue(p.assumedRanges().get(k).contains(p.get(k)), k);
        }
    }
}

package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.profile.Profile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilesCommandTest {
    @Test
    void listsEveryBuiltInMachineWithItsArchitectureAndAssumedFigures() {
        MainTest.Result r = pvtlb("profiles");
        assertEquals(0, r.code(), r.err());
        for (String name : Profile.BUILT_IN) {
            Profile p = Profile.load(name);
            assertEquals(name, p.name(), "a built-in profile's name is its file's");
            assertFalse(p.machine().isEmpty(), name + " names its machine");
            assertEquals(Profile.KEYS.size(), p.values().size(), name);
            String row = String.format("%-20s %-6s %4d/%-3d  %s", name, p.arch(), p.assumedRanges().size(), Profile.KEYS.size(), p.machine());
            assertTrue(r.out().contains(row), row + "\n" + r.out());
        }
        assertEquals("arm64", Profile.load("arm64-thunderx2").arch());
        assertTrue(r.out().startsWith("profile              arch    assumed  machine\n"), r.out());
    }

    @Test
    void showsOneProfilesFiguresWithTheRangesOfTheAssumedOnes(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("p.json");
        MainTest.Result r = pvtlb("profiles", "x86-skylake", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  tlb.entries                                  1536\n"), r.out());
        assertTrue(r.out().contains("  mem.ns                                         80   ASSUMED 60..110\n"), r.out());
        String j = Files.readString(json);
        assertTrue(j.contains("\"mem.ns\": {\"value\": 80, \"assumed_low\": 60, \"assumed_high\": 110}")
                || j.replaceAll("\\s+", "").contains("\"mem.ns\":{\"value\":80,\"assumed_low\":60,\"assumed_high\":110}"), j);
    }

    @Test
    void anUnknownProfileIsBadInput() {
        MainTest.Result r = pvtlb("profiles", "x86-pentium4");
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("unknown profile 'x86-pentium4'"), r.err());
    }
}

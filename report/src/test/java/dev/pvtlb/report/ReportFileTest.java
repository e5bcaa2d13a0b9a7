package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportFileTest {
    @TempDir
    Path dir;

    private static String refused(Path p, String option) {
        return assertThrows(ModelException.class, () -> ReportFile.check(p, option)).getMessage();
    }

    @Test
    void aWritableFileIsAcceptedAndLeftAsItWas() throws IOException {
        Path existing = Files.writeString(dir.resolve("old.json"), "old");
        ReportFile.check(existing, "--json");
        assertEquals("old", Files.readString(existing), "the check does not truncate");
        Path fresh = dir.resolve("new.json");
        ReportFile.check(fresh, "--json");
        assertFalse(Files.exists(fresh), "the check leaves no file behind");
        ReportFile.check(null, "--json");
    }

    @Test
    void unwritablePathsAreRefusedWithTheOption() throws IOException {
        assertEquals("--json " + dir + ": is a directory, not a file", refused(dir, "--json"));
        Path missing = dir.resolve("a/b.json");
        assertEquals("--csv " + missing + ": no such directory " + dir.resolve("a"), refused(missing, "--csv"));
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals("--html " + file.resolve("x.html") + ": " + file + " is not a directory",
                refused(file.resolve("x.html"), "--html"));
        assertEquals("--trace /sys/x: cannot write: permission denied", refused(Path.of("/sys/x"), "--trace"));
    }

    @Test
    void anOutputDirectoryMustBeMakeable() throws IOException {
        ReportFile.checkDirectoryToMake(dir, "--out");
        ReportFile.checkDirectoryToMake(dir.resolve("new"), "--out");
        Path file = Files.writeString(dir.resolve("f"), "x");
        assertEquals("--out " + file + " is a file, not a directory",
                assertThrows(ModelException.class, () -> ReportFile.checkDirectoryToMake(file, "--out")).getMessage());
        Path deep = dir.resolve("no/such");
        assertEquals("--out " + deep + ": no such directory " + dir.resolve("no"),
                assertThrows(ModelException.class, () -> ReportFile.checkDirectoryToMake(deep, "--out")).getMessage());
    }

    @Test
    void aFailedWriteIsOneLineNamingTheOption() {
        assertEquals("--json /sys/x.json: cannot write: permission denied",
                assertThrows(ModelException.class, () -> ReportFile.write(Path.of("/sys/x.json"), "--json", "{}")).getMessage());
    }
}

package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.validation.FidelityCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/fidelity.md carries today's error of the fast level: its generated block is what a fresh
 * {@code pvtlb validate --fidelity-check --markdown} writes, byte for byte. A change to either
 * level that moves a figure fails here until the page is refreshed with
 * {@code ./pvtlb validate --fidelity-check --markdown docs/fidelity.md}.
 */
class FidelityPageTest {
    @Test
    void theGeneratedBlockOfTheFidelityPageIsTodaysCheck(@TempDir Path dir) throws Exception {
        Path doc = Path.of("..", "docs", "fidelity.md");
        String page = Files.readString(doc);
        assertTrue(page.contains(FidelityCheck.BLOCK.begin()) && page.contains(GeneratedBlock.END), "docs/fidelity.md has no generated block");
        Path fresh = dir.resolve("f.md");
        MainTest.Result r = MainTest.pvtlb("validate", "--fidelity-check", "--quiet", "--markdown", fresh.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(FidelityCheck.BLOCK.into(page, Files.readString(fresh)), page,
                "docs/fidelity.md is stale: run ./pvtlb validate --fidelity-check --markdown docs/fidelity.md");
    }
}

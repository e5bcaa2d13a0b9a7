package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.validation.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/validation.md carries today's figures: its generated block is what a fresh
 * {@code pvtlb validate --markdown} writes, byte for byte. A model change that moves a figure
 * fails here until the page is refreshed with {@code ./pvtlb validate --markdown docs/validation.md}.
 */
class ValidationPageTest {
    @Test
    void theGeneratedBlockOfTheValidationPageIsTodaysRun(@TempDir Path dir) throws Exception {
        Path doc = Path.of("..", "docs", "validation.md");
        String page = Files.readString(doc);
        int begin = page.indexOf(Validation.MARKDOWN_BEGIN);
        int end = page.indexOf(GeneratedBlock.END);
        assertTrue(begin >= 0 && end > begin, "docs/validation.md has no generated block");
        Path fresh = dir.resolve("v.md");
        MainTest.Result r = MainTest.pvtlb("validate", "--quiet", "--markdown", fresh.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(new GeneratedBlock(Validation.MARKDOWN_BEGIN).into(page, Files.readString(fresh)), page,
                "docs/validation.md is stale: run ./pvtlb validate --markdown docs/validation.md");
    }
}

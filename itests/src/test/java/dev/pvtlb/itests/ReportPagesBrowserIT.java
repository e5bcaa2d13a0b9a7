package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * Every kind of HTML page pvtlb writes, opened in headless Chromium: the page loads with no
 * console error, holds the SVG it should, and its screenshot is saved under
 * target/screenshots (a build artifact).
 */
class ReportPagesBrowserIT {
    private static ChromeDriver browser;
    private static Path pages;

    @BeforeAll
    static void start() throws IOException {
        Chromium.requireOrSkip();
        Path work = ProjectFiles.workDir().resolve("browser");
        pages = work.resolve("pages");
        Files.createDirectories(pages);
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        browser = Chromium.start(profile);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** Runs {@code pvtlb ARGS --quiet --html PAGE} in this JVM and returns the page written. */
    private static Path pvtlb(String page, String... args) {
        Path file = pages.resolve(page);
        run(java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--quiet", "--html",
                file.toString())).toArray(String[]::new));
        return file;
    }

    private static void run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, String.join(" ", args) + ": " + out + err);
    }

    /** Opens {@code page}, checks the console has no error, saves a screenshot named after it. */
    private static void open(Path page) throws IOException {
        browser.get(page.toUri().toString());
        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertEquals(List.of(), errors, page + ": console errors");
        assertEquals(List.of(), all("pre"), page + ": numbers and steps are tables and lists, not preformatted text");
        Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, shots().resolve(page.getFileName().toString().replace(".html", ".png")), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Where the screenshots go: itests/target/screenshots, kept as the build's artifact. */
    private static Path shots() throws IOException {
        return Files.createDirectories(ProjectFiles.root().resolve("itests/target/screenshots"));
    }

    private static List<WebElement> all(String css) {
        return browser.findElements(By.cssSelector(css));
    }

    @Test
    void aComparisonPageHasOneChartPerDifferingMetricRoundTicksAndTables() throws IOException {
        open(pvtlb("compare.html", "compare", "munmap-storm", "--vary", "native.smtSiblingDedup=false,true", "--set", "ops=3",
                "--set", "threads=8", "--reps", "2"));
        // munmap_ns and access_ns both differ (an access costs what the flushes leave in the caches).
        assertEquals(2, all("svg").size(), "a chart per differing metric");
        assertEquals(4, all("svg rect title").size(), "a bar per variant in each");
        for (WebElement chart : all("svg")) {
            List<Double> ticks = chart.findElements(By.cssSelector("text.tick")).stream()
                    .map(t -> Double.parseDouble(t.getText())).toList();
            assertTrue(ticks.size() >= 3, ticks.toString());
            double step = ticks.get(1) - ticks.get(0);
            double mantissa = step / Math.pow(10, Math.floor(Math.log10(step)));
            assertTrue(List.of(1.0, 2.0, 5.0).contains(Math.round(mantissa * 1e6) / 1e6), "step of 1, 2 or 5: " + ticks);
            for (int i = 0; i < ticks.size(); i++) {
                assertEquals(ticks.get(0) + i * step, ticks.get(i), step * 1e-9, "evenly spaced: " + ticks);
                assertEquals(0, Math.abs(Math.IEEEremainder(ticks.get(i), step)), step * 1e-9, "a multiple of the step: " + ticks);
            }
        }
        assertTrue(all("p.same").isEmpty(), "nothing is the same in both variants");
        assertTrue(all("table.numbers tr").size() >= 3, "the numbers as a table");
    }

    @Test
    void theDemoPageDrawsTheHazardsScheduleAsSwimLanes() throws IOException {
        open(pvtlb("demo.html", "demo"));
        WebElement lanes = browser.findElement(By.cssSelector("svg.swimlanes"));
        assertTrue(lanes.isDisplayed());
        assertTrue(lanes.findElements(By.cssSelector("text.lane")).size() >= 2, "a lane per CPU");
        // What each CPU did: slices in every lane (a lane's y), more than one kind of work in all.
        List<WebElement> slices = lanes.findElements(By.cssSelector("rect.slice"));
        assertEquals(lanes.findElements(By.cssSelector("text.lane")).size(),
                slices.stream().map(r -> r.getDomAttribute("y")).distinct().count(), "a slice in every lane");
        assertTrue(slices.stream().map(r -> r.getDomAttribute("fill")).distinct().count() >= 2, "more than one kind of work");
        // The demo's schedule (pct on kvm-preempted-flush, with explore's host preemption by steps)
        // ends in a load through a stale entry: each violating access is marked, and marked once.
        List<String> marks = lanes.findElements(By.cssSelector("g.hazard title")).stream()
                .map(t -> t.getDomProperty("textContent")).toList();
        assertEquals(1, marks.size(), marks.toString());
        assertEquals(marks.size(), new java.util.HashSet<>(marks).size(), "no access marked twice: " + marks);
        assertTrue(marks.stream().allMatch(m -> m.startsWith("STALE_TRANSLATION: ") && m.contains(" of 0x7f00002")), marks.toString());
        assertTrue(browser.findElement(By.cssSelector("p.hazard")).getText().contains("STALE_TRANSLATION"));
        Files.copy(lanes.getScreenshotAs(OutputType.FILE).toPath(), shots().resolve("demo-swimlanes.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void anAssessPageChartsTheCostAndTablesEveryHunt() throws IOException {
        open(pvtlb("assess.html", "assess", "--backend", "xen-pv", "--threads", "2,4", "--vms", "1,2", "--budget", "10",
                "--traces", pages.resolve("assess-traces").toString()));
        // munmap_ns and access_ns over threads, then over VMs per host: a line chart of each
        assertTrue(all("svg").size() >= 4, "cost charts: " + all("svg").size());
        List<WebElement> tables = all("table");
        // the catalogue's 11 entries and tlb-torture under 2 table-free policies, and the header
        assertEquals(25, tables.get(tables.size() - 1).findElements(By.cssSelector("tr")).size());
        assertTrue(browser.findElement(By.cssSelector("b.pass")).getText().equals("SAFE"));
    }

    /**
     * The report card of a researcher's design from its own jar (the external project's
     * researcher-kvm, KVM's paravirtual flush through the SPI alone): written by a pvtlb of its own
     * (a jar changes the backends a JVM knows), opened here like every other page.
     */
    @Test
    void anExternalDesignsAssessPageFromItsJarChartsTheCostBesideTheShippedDesigns() throws Exception {
        Path page = pages.resolve("assess-external.html");
        PvtlbProcess.Ran r = PvtlbProcess.run(pages, "assess", "--backend-jar", ExternalKvmDesignIT.designJar().toString(),
                "--backend", ExternalKvmDesignIT.DESIGN, "--threads", "2,4", "--vms", "1,2", "--budget", "10", "--quiet",
                "--html", page.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        open(page);
        // munmap_ns and access_ns over threads, then over VMs per host: the design in each chart's legend, beside kvm
        assertEquals(4, all("svg").size(), "cost charts");
        List<String> legend = all("svg text").stream().map(WebElement::getText).toList();
        assertEquals(4, legend.stream().filter(("backend=" + ExternalKvmDesignIT.DESIGN)::equals).count(), legend.toString());
        assertEquals(4, legend.stream().filter("backend=kvm"::equals).count(), legend.toString());
        List<WebElement> tables = all("table");
        assertEquals(25, tables.get(tables.size() - 1).findElements(By.cssSelector("tr")).size());
        assertTrue(browser.findElement(By.cssSelector("b.pass")).getText().equals("SAFE"));
    }

    @Test
    void aRunPageAndAValidationPageOpenCleanly() throws IOException {
        open(pvtlb("run.html", "run", "munmap-storm", "--set", "ops=2"));
        assertTrue(all("table.numbers").size() >= 1);
        open(pvtlb("validate.html", "validate", "--only", "arm64-noise"));
        assertTrue(all("svg").size() >= 1, "published vs emulated");
        assertTrue(all("ul.runs li code").size() >= 1, "the runs behind it");
    }

    @Test
    void aSweepsSummaryHasALineChartAndItsTable() throws IOException {
        Path study = pages.resolve("small-grid.yaml");
        Files.writeString(study, """
                # Two grid points of one seed: the smallest sweep that draws a line.
                scenario: munmap-storm
                set: {ops: 2, vcpus: 2, memory: 16}
                vary: {threads: [1, 2]}
                seeds: [1]
                metrics: [munmap_ns]
                """);
        Path out = pages.resolve("sweep");
        run("sweep", study.toString(), "--out", out.toString(), "--parallel", "1");
        Path summary = pages.resolve("sweep.html");
        Files.copy(out.resolve("summary.html"), summary, StandardCopyOption.REPLACE_EXISTING);
        open(summary);
        assertEquals(1, all("svg polyline").size(), "munmap_ns over threads, one line for the one variant");
        assertEquals(3, all("table.numbers tr").size(), "a head and a row per grid point");
    }
}

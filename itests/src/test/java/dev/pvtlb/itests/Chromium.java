package dev.pvtlb.itests;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through its ChromeDriver, for the browser test. Both come
 * from apt (packages chromium and chromium-driver; .ci/run installs them): nothing is downloaded
 * at test time, so Selenium Manager is never asked. Without them the test is skipped with a
 * message, except under {@code CI=true}, where it fails, as the container tests do.
 */
final class Chromium {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {
    }

    static void requireOrSkip() {
        if (Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER)) {
            return;
        }
        String why = "BROWSER TEST SKIPPED: no " + (Files.isExecutable(BROWSER) ? DRIVER : BROWSER)
                + ". `bash .ci/run` installs Debian's chromium and chromium-driver; by hand (as root): "
                + "`apt-get install chromium chromium-driver`.";
        System.err.println(why);
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail("CI=true: the browser test is mandatory in CI. " + why);
        }
        Assumptions.abort(why);
    }

    /** A headless browser with its console kept (read with {@code manage().logs()}), profile in {@code profileDir}. */
    static ChromeDriver start(Path profileDir) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(BROWSER.toFile());
        // The flags this machine needs: no sandbox as root, and no background connections (the
        // network is closed: Chromium's attempts would only fail, many at a time).
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profileDir, "--window-size=1200,1000");
        o.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER.toString())).build();
        return new ChromeDriver(service, o);
    }
}

package io.steadfast.cluster.dashboard;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import io.steadfast.cluster.RepoLayout;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.chromium.ChromiumDriverLogLevel;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven through its chromedriver, for one test class: registered as a static
 * {@code @RegisterExtension} field ordered before the cluster, it finds both binaries first (so that a machine without
 * them does not start a cluster for nothing) and quits the browser after the class.
 * <p>
 * The binaries are {@code -Dsteadfast.chromium} / {@code STEADFAST_CHROMIUM} and {@code -Dsteadfast.chromedriver} /
 * {@code STEADFAST_CHROMEDRIVER}, else {@code chromium} and {@code chromedriver} on {@code PATH}. Without them the class
 * is skipped with a message saying how to install them, or fails when {@code STEADFAST_BROWSER_REQUIRED=1} (as
 * {@code .ci/run} sets after installing them). Both paths are given to Selenium, so Selenium Manager never looks for
 * (or downloads) a browser or driver.
 * <p>
 * The browser keeps its console at level ALL ({@code goog:loggingPrefs}), for {@link ConsoleErrors} to read.
 */
final class HeadlessChromium implements BeforeAllCallback, AfterAllCallback {

    /** The flags of docs/STACK.md: headless, no sandbox (we run as root in CI), nothing that calls out. */
    static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--disable-background-networking", "--disable-component-update", "--disable-sync");
    /** Wide enough for the DAG, the tables and the charts side by side in the screenshots. */
    private static final Dimension WINDOW = new Dimension(1440, 960);
    private static final String INSTALL = "apt-get install -y chromium chromium-driver (Debian), or pass"
            + " -Dsteadfast.chromium=PATH and -Dsteadfast.chromedriver=PATH";

    private Path logDir;
    private Path browser;
    private Path driverBinary;
    private ChromeDriverService service;
    private ChromeDriver driver;

    private HeadlessChromium() {
    }

    /**
     * A browser for the test class, whose chromedriver logs to {@code chromedriver.log} in the class's screenshot
     * directory ({@link Screenshots#dirOf}).
     */
    static HeadlessChromium forTestClass() {
        return new HeadlessChromium();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<Path> foundBrowser = locate("steadfast.chromium", "STEADFAST_CHROMIUM", "chromium");
        Optional<Path> foundDriver = locate("steadfast.chromedriver", "STEADFAST_CHROMEDRIVER", "chromedriver");
        if (foundBrowser.isEmpty() || foundDriver.isEmpty()) {
            String missing = foundBrowser.isEmpty() && foundDriver.isEmpty() ? "chromium and chromedriver"
                    : foundBrowser.isEmpty() ? "chromium" : "chromedriver";
            String message = "No " + missing + " on PATH for " + context.getDisplayName() + "'s browser tests: "
                    + INSTALL;
            if ("1".equals(System.getenv("STEADFAST_BROWSER_REQUIRED"))) {
                fail(message + "; STEADFAST_BROWSER_REQUIRED=1, so the browser tests fail rather than skip");
            }
            abort(message + "; the browser tests are skipped");
        }
        browser = foundBrowser.get();
        driverBinary = foundDriver.get();
        logDir = Screenshots.dirOf(RepoLayout.fromWorkingDirectory().root().resolve("local-cluster"),
                context.getRequiredTestClass().getSimpleName());
    }

    /**
     * The browser, started on first use (after the cluster, so that its start does not compete with the services'
     * for the CPU) and kept for the class.
     */
    synchronized ChromeDriver driver() {
        if (driver == null) {
            driver = start();
        }
        return driver;
    }

    private ChromeDriver start() {
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create " + logDir, e);
        }
        service = new ChromeDriverService.Builder().usingDriverExecutable(driverBinary.toFile()).usingAnyFreePort()
                .withLogFile(logDir.resolve("chromedriver.log").toFile())
                .withLogLevel(ChromiumDriverLogLevel.WARNING).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments(FLAGS);
        options.addArguments("--window-size=" + WINDOW.getWidth() + "," + WINDOW.getHeight());
        LoggingPreferences logging = new LoggingPreferences();
        logging.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logging);
        ChromeDriver started = new ChromeDriver(service, options);
        started.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
        return started;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
        if (service != null) {
            service.stop();
        }
    }

    private static Optional<Path> locate(String property, String variable, String command) {
        String given = Optional.ofNullable(System.getProperty(property)).filter(s -> !s.isBlank())
                .orElse(System.getenv(variable));
        if (given != null && !given.isBlank()) {
            Path path = Path.of(given);
            if (!Files.isExecutable(path)) {
                fail(command + " given as " + given + " (" + property + " or " + variable + ") is not an executable"
                        + " file; " + INSTALL);
            }
            return Optional.of(path);
        }
        String pathVariable = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Arrays.stream(pathVariable.split(File.pathSeparator)).filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, command)).filter(Files::isExecutable).findFirst();
    }
}

package io.steadfast.cluster.dashboard;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's page in the browser, through the stable hooks of the dashboard contract (section 2): the nav
 * links {@code a[data-nav]}, the open view {@code #view[data-view][data-ready=true]}, and the {@code data-*}
 * attributes of each view. Every wait polls the DOM for a condition (no fixed sleeps); the views re-render every
 * few seconds, so elements are looked up afresh on each poll and a stale one is simply looked up again.
 * <p>
 * {@link #endStep} closes each step of a test: a screenshot, then the console check.
 */
final class DashboardPage {

    static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    private final ChromeDriver driver;
    private final URI base;
    private final ConsoleErrors console;
    private final Screenshots screenshots;

    DashboardPage(ChromeDriver driver, URI base, ConsoleErrors console, Screenshots screenshots) {
        this.driver = driver;
        this.base = base;
        this.console = console;
        this.screenshots = screenshots;
    }

    /**
     * A page on {@code base} in {@code driver}, its screenshots in {@code screenshotDir} and its console transcript
     * beside them ({@code console.log}).
     */
    static DashboardPage of(ChromeDriver driver, URI base, Path screenshotDir) {
        return new DashboardPage(driver, base, new ConsoleErrors(driver, screenshotDir.resolve("console.log")),
                new Screenshots(driver, screenshotDir));
    }

    ChromeDriver driver() {
        return driver;
    }

    /** Loads the page at its root and waits for the default view, the topologies list. */
    DashboardPage open() {
        driver.get(base.toString());
        awaitView("topologies");
        return this;
    }

    /** Loads {@code #/<route>}, e.g. {@code topologies/word-count/checkpoints}, as a link or a bookmark would. */
    DashboardPage openRoute(String route) {
        driver.get(base.resolve("/#/" + route).toString());
        return this;
    }

    /** Clicks the nav link {@code a[data-nav=<name>]} and waits for its view to have rendered. */
    DashboardPage navigate(String name) {
        click(By.cssSelector("a[data-nav=\"" + name + "\"]"));
        awaitView(name);
        return this;
    }

    /** Waits until {@code #view} shows the view {@code name} and its data has rendered ({@code data-ready=true}). */
    void awaitView(String name) {
        await(() -> "view '" + name + "' ready (#view[data-view=" + name + "][data-ready=true]); the open view is "
                        + openView(), DEFAULT_WAIT,
                d -> !d.findElements(By.cssSelector("#view[data-view=\"" + name + "\"][data-ready=\"true\"]"))
                        .isEmpty());
    }

    /** Waits until {@code #view} has rendered whatever view it shows; that view's name. */
    String awaitAnyViewReady() {
        return await("any view ready (#view[data-ready=true])", DEFAULT_WAIT,
                d -> d.findElements(By.cssSelector("#view[data-ready=\"true\"]")).stream().findFirst()
                        .map(view -> view.getDomAttribute("data-view")).orElse(null));
    }

    /** {@code data-view} of {@code #view} now, with {@code data-ready}, for messages. */
    String openView() {
        try {
            WebElement view = driver.findElement(By.id("view"));
            return "'" + view.getDomAttribute("data-view") + "' (data-ready=" + view.getDomAttribute("data-ready") + ")";
        } catch (NoSuchElementException | StaleElementReferenceException e) {
            return "none (no #view)";
        }
    }

    /**
     * Waits until {@code condition} answers something other than null or false, polling every 200 ms and looking
     * again when an element went stale or is not there (yet); its last answer.
     */
    <T> T await(String what, Duration timeout, Function<WebDriver, T> condition) {
        return await(() -> what, timeout, condition);
    }

    /** As {@link #await(String, Duration, Function)}, the description made when the wait fails. */
    <T> T await(Supplier<String> what, Duration timeout, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, timeout, POLL).withMessage(() -> "waited for " + what.get())
                .ignoring(StaleElementReferenceException.class).ignoring(NoSuchElementException.class)
                .until(condition);
    }

    /** Waits until the element is there and displayed, then clicks it (again, if it was re-rendered meanwhile). */
    void click(By locator) {
        await("a clickable " + locator, DEFAULT_WAIT, d -> {
            WebElement element = d.findElement(locator);
            if (!element.isDisplayed() || !element.isEnabled()) {
                return false;
            }
            element.click();
            return true;
        });
    }

    /** The trimmed text of the first element {@code locator} finds now, if any. */
    Optional<String> text(By locator) {
        try {
            return driver.findElements(locator).stream().findFirst().map(e -> e.getText().trim());
        } catch (StaleElementReferenceException e) {
            return Optional.empty();
        }
    }

    /** Waits until the first element {@code locator} finds has exactly the text {@code expected}. */
    void awaitText(By locator, String expected, Duration timeout) {
        await(() -> locator + " to read '" + expected + "' (it reads " + text(locator).orElse("nothing") + ")", timeout,
                d -> text(locator).filter(expected::equals).isPresent());
    }

    /** How many elements {@code locator} finds now. */
    int count(By locator) {
        return driver.findElements(locator).size();
    }

    /** The elements {@code locator} finds now, mapped while they are fresh; empty if they went stale meanwhile. */
    <T> List<T> each(By locator, Function<WebElement, T> mapping) {
        try {
            return driver.findElements(locator).stream().map(mapping).toList();
        } catch (StaleElementReferenceException e) {
            return List.of();
        }
    }

    /** Runs a script in the page; its result (numbers come back as Long or Double, arrays as lists). */
    Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** The current URL's fragment, e.g. {@code #/topologies/word-count}. */
    String hash() {
        return String.valueOf(script("return window.location.hash;"));
    }

    /**
     * Ends a step: a screenshot {@code <step>.png}, then the console check, which fails the test on any error the
     * step did not cause on purpose.
     */
    void endStep(String step, ConsoleErrors.Expected... expected) {
        screenshots.take(step);
        console.assertNoneAfter(step, expected);
    }

    Path screenshotDir() {
        return screenshots.dir();
    }
}

package io.steadfast.cluster.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;

/**
 * Screenshots of a browser test, kept as test artifacts: {@code <dir>/<step>.png}, one per step name (a step taken
 * again overwrites its earlier picture).
 */
final class Screenshots {

    private final TakesScreenshot browser;
    private final Path dir;

    /** @param dir e.g. {@code local-cluster/target/dashboard-screenshots/<test>} */
    Screenshots(TakesScreenshot browser, Path dir) {
        this.browser = browser;
        this.dir = dir;
    }

    /** The directory of the screenshots of the test named {@code test}, under the module's {@code target}. */
    static Path dirOf(Path moduleDir, String test) {
        return moduleDir.resolve("target").resolve("dashboard-screenshots").resolve(test);
    }

    /** Writes the visible page as {@code <step>.png}; its path. */
    Path take(String step) {
        Path file = dir.resolve(step + ".png");
        try {
            Files.createDirectories(dir);
            Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write the screenshot " + file, e);
        }
        return file;
    }

    Path dir() {
        return dir;
    }
}

package io.steadfast.cluster.dashboard;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The browser console, read after each step of a browser test: any SEVERE entry (an uncaught exception, a
 * {@code console.error}, a failed resource load) fails the test, naming the step and the entries, unless the step
 * caused exactly that failure on purpose ({@link Expected}). Every entry of every level is also appended to a
 * transcript file, to read after a failure.
 * <p>
 * Chromium hands each entry out once: what one check reads, the next does not see again.
 */
final class ConsoleErrors {

    private final WebDriver driver;
    private final Path transcript;

    /**
     * @param transcript the file every console entry is appended to, with the step it was read after; an earlier
     *                   run's is deleted
     */
    ConsoleErrors(WebDriver driver, Path transcript) {
        this.driver = driver;
        this.transcript = transcript;
        try {
            Files.deleteIfExists(transcript);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete the earlier console transcript " + transcript, e);
        }
    }

    /**
     * Reads the console entries logged since the last check and fails if one is SEVERE and not {@code expected}.
     *
     * @param step     what the test just did, for the message
     * @param expected failed requests the step caused on purpose (e.g. a deploy the router answers with 400)
     */
    void assertNoneAfter(String step, Expected... expected) {
        List<LogEntry> entries = driver.manage().logs().get(LogType.BROWSER).getAll();
        record(step, entries);
        List<String> errors = new ArrayList<>();
        for (LogEntry entry : entries) {
            if (entry.getLevel().intValue() >= Level.SEVERE.intValue()
                    && List.of(expected).stream().noneMatch(e -> e.matches(entry.getMessage()))) {
                errors.add(entry.getMessage());
            }
        }
        if (!errors.isEmpty()) {
            fail("The browser console had " + errors.size() + " error(s) after step '" + step + "' (the dashboard"
                    + " must catch and show failures, never let them reach the console):\n  "
                    + String.join("\n  ", errors) + "\nEvery console entry is in " + transcript);
        }
    }

    private void record(String step, List<LogEntry> entries) {
        StringBuilder lines = new StringBuilder("-- after " + step + " (" + Instant.now() + ")\n");
        entries.forEach(entry -> lines.append(Instant.ofEpochMilli(entry.getTimestamp())).append(' ')
                .append(entry.getLevel()).append(' ').append(entry.getMessage()).append('\n'));
        try {
            Files.createDirectories(transcript.getParent());
            Files.writeString(transcript, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + transcript, e);
        }
    }

    /**
     * A failed request that a step causes on purpose: Chromium logs every HTTP error answer to a {@code fetch} as a
     * SEVERE "Failed to load resource: the server responded with a status of 400 (...)" entry naming the URL.
     *
     * @param path   the request's path, e.g. {@code /api/v1/topologies}
     * @param status the HTTP status the step expects
     */
    record Expected(String path, int status) {

        /** The {@code status} answer to a request whose URL ends with {@code path}. */
        static Expected failedRequest(String path, int status) {
            return new Expected(path, status);
        }

        boolean matches(String message) {
            int separator = message.indexOf(" - Failed to load resource: the server responded with a status of "
                    + status + " ");
            return separator > 0 && message.substring(0, separator).endsWith(path);
        }
    }
}

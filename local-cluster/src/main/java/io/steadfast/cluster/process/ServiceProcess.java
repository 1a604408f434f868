package io.steadfast.cluster.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * One service running as a child process of this JVM, started with the same {@code java} binary. Not
 * thread-safe beyond what {@link Process} offers; the owner starts, stops or kills it.
 */
public final class ServiceProcess {

    private static final List<String> FAILURE_MARKERS = List.of(
            "APPLICATION FAILED TO START", "ERROR", "Exception", "Error:");

    private final ProcessSpec spec;
    private final Process process;
    private final Instant startedAt;
    /** Whether {@link #pause()} froze it and no {@link #resume()} or {@link #kill()} came since. */
    private volatile boolean paused;

    private ServiceProcess(ProcessSpec spec, Process process, Instant startedAt) {
        this.spec = spec;
        this.process = process;
        this.startedAt = startedAt;
    }

    /** Starts the process; its output is appended to the spec's log file after a header line. */
    public static ServiceProcess start(ProcessSpec spec) {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(spec.jvmArgs());
        command.add("-jar");
        command.add(spec.jar().toString());
        command.addAll(spec.appArgs());
        try {
            Files.createDirectories(spec.logFile().toAbsolutePath().getParent());
            Files.writeString(spec.logFile(), "=== " + Instant.now() + " starting " + spec.name() + ": "
                            + String.join(" ", command) + System.lineSeparator(),
                    StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.PIPE)
                    .start();
            process.getOutputStream().close(); // no stdin: a service must never wait for console input
            return new ServiceProcess(spec, process, Instant.now());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + spec.name() + " (" + String.join(" ", command) + ")", e);
        }
    }

    /** The java binary running this JVM, so children use the same Java version. */
    static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public String name() {
        return spec.name();
    }

    public ProcessSpec spec() {
        return spec;
    }

    public Path logFile() {
        return spec.logFile();
    }

    public long pid() {
        return process.pid();
    }

    public Instant startedAt() {
        return startedAt;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code if the process has ended. */
    public OptionalInt exitCode() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /** Kills the process at once (SIGKILL on Unix, which ends a frozen one too) and waits for it to be gone. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
        paused = false;
    }

    /**
     * Freezes the process (SIGSTOP), as a long GC pause or a stalled VM would: it keeps its sockets but answers
     * nothing until {@link #resume()}.
     */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** Lets a {@link #pause() paused} process run again (SIGCONT). */
    public void resume() {
        signal("CONT");
        paused = false;
    }

    /** Whether the process is frozen by {@link #pause()}. */
    public boolean isPaused() {
        return paused && process.isAlive();
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + name + " on " + describe(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while signalling " + describe(), e);
        }
    }

    /** Asks the process to stop (SIGTERM on Unix), without waiting; a frozen one is let run first to act on it. */
    public void requestStop() {
        resumeIfPaused();
        process.destroy();
    }

    /**
     * Stops the process: asks it to stop, waits up to {@code grace}, then kills it.
     *
     * @return true if it stopped within the grace period, false if it had to be killed
     */
    public boolean stop(Duration grace) {
        resumeIfPaused();
        process.destroy();
        if (awaitExit(grace)) {
            return true;
        }
        kill();
        return false;
    }

    private void resumeIfPaused() {
        if (isPaused()) {
            resume();
        }
    }

    /** Waits up to {@code timeout} for the process to end; true if it has. */
    public boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** Whether the log written so far contains {@code text}. */
    public boolean logContains(String text) {
        return readLog().stream().anyMatch(line -> line.contains(text));
    }

    /**
     * The part of the log most likely to explain a failure: {@code maxLines} lines from the first line that
     * looks like an error, or the last {@code maxLines} lines if none does.
     */
    public List<String> logExcerpt(int maxLines) {
        return excerpt(readLog(), maxLines);
    }

    static List<String> excerpt(List<String> lines, int maxLines) {
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FAILURE_MARKERS.stream().anyMatch(line::contains)) {
                return lines.subList(i, Math.min(lines.size(), i + maxLines));
            }
        }
        return lines.subList(Math.max(0, lines.size() - maxLines), lines.size());
    }

    private List<String> readLog() {
        try {
            return Files.exists(spec.logFile())
                    ? Files.readAllLines(spec.logFile(), StandardCharsets.ISO_8859_1) // never fails on odd bytes
                    : List.of();
        } catch (IOException e) {
            return List.of("(could not read " + spec.logFile() + ": " + e.getMessage() + ")");
        }
    }

    /** A one-line description for messages: name, pid and exit code if it ended. */
    public String describe() {
        return name() + " (pid " + pid() + exitCode().stream().mapToObj(code -> ", exited with code " + code)
                .findFirst().orElse("") + ")";
    }
}

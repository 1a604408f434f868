package io.steadfast.router.scheduling.local;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A host the router started as a child process: {@code java <jvmArgs> -jar <jar> <args>}, with the router's own java
 * binary, its output appended to a log file, no standard input.
 *
 * @param id the host id it registers with
 * @param kind PE host or voter
 * @param process the process
 * @param log its log file
 * @param startedAt when it was started
 */
record HostProcess(HostId id, HostKind kind, Process process, Path log, Instant startedAt) {

    static HostProcess start(HostId id, HostKind kind, Path jar, List<String> jvmArgs, List<String> args, Path log) {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmArgs);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Files.writeString(log, "=== " + Instant.now() + " the router starts " + id + ": " + String.join(" ",
                    command) + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            process.getOutputStream().close();
            return new HostProcess(id, kind, process, log, Instant.now());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start host " + id + ": " + String.join(" ", command), e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and waits up to 10 s for it to be gone. */
    void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
    }

    /** SIGTERM, without waiting. */
    void requestStop() {
        process.destroy();
    }

    boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    String describe() {
        return id + " (pid " + process.pid() + (process.isAlive() ? "" : ", exited with code " + process.exitValue())
                + ", log " + log + ")";
    }
}

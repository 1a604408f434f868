package io.steadfast.cluster.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How to start one service process: {@code java <jvmArgs> -jar <jar> <appArgs>}, output (stdout and stderr)
 * appended to {@code logFile}.
 *
 * @param name a short name used in messages and log file names, e.g. {@code router} or {@code host-2}
 */
public record ProcessSpec(String name, Path jar, List<String> jvmArgs, List<String> appArgs, Path logFile) {

    public ProcessSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jar, "jar");
        Objects.requireNonNull(logFile, "logFile");
        jvmArgs = List.copyOf(jvmArgs);
        appArgs = List.copyOf(appArgs);
    }

    /** A copy that also loads the operator jars, as every process that validates or runs operators must. */
    public ProcessSpec loading(OperatorJars operators) {
        List<String> withOperators = new ArrayList<>(jvmArgs);
        withOperators.addAll(operators.jvmArgs());
        return new ProcessSpec(name, jar, withOperators, appArgs, logFile);
    }
}

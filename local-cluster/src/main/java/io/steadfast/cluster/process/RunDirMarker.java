package io.steadfast.cluster.process;

import java.nio.file.Path;
import java.util.List;

/**
 * The argument that ties a host process to the local cluster it belongs to: the router's local host scheduling puts
 * {@code -Dsteadfast.local.run-dir=<absolute run dir>} on the command line of every host and voter it starts
 * ({@code LocalHostProvisioner.RUN_DIR_PROPERTY} in router-service spells the same name). The run directory is unique to
 * one cluster, so the hosts of another local cluster on the same machine never carry this cluster's marker.
 *
 * @param runDir the cluster's run directory, absolute and normalised as the router writes it
 */
public record RunDirMarker(Path runDir) {

    /** The system property that names a host's run directory. */
    public static final String PROPERTY = "steadfast.local.run-dir";

    public RunDirMarker {
        runDir = runDir.toAbsolutePath().normalize();
    }

    /** The argument itself: {@code -Dsteadfast.local.run-dir=<run dir>}. */
    public String argument() {
        return "-D" + PROPERTY + "=" + runDir;
    }

    /** Whether one of {@code arguments} is exactly the marker (not a router setting naming the run directory). */
    public boolean isOn(List<String> arguments) {
        return arguments.contains(argument());
    }

    /**
     * Whether the process's command line carries the marker: by its arguments, or where the process table gives only
     * the command line (a long one, cut short), by the marker between spaces in it; the router puts it first, right
     * after the java binary, so that it is in any part that is read.
     */
    public boolean isOn(ProcessHandle.Info process) {
        return process.arguments().map(arguments -> isOn(List.of(arguments)))
                .orElseGet(() -> process.commandLine().map(line -> line.contains(" " + argument() + " "))
                        .orElse(false));
    }
}

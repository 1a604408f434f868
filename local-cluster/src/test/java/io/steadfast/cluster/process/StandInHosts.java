package io.steadfast.cluster.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Stand-ins for the host processes of some local cluster: shells blocked reading their standard input, whose command
 * lines carry a run directory's marker and a host id as a router-started host's does. The caller kills them.
 */
public final class StandInHosts {

    private StandInHosts() {
    }

    /** {@code sh -c 'echo ready; read x' <marker> --steadfast.host.id=<id>}, once it runs. */
    public static Process start(RunDirMarker marker, String hostId) {
        return start(marker, hostId, "");
    }

    /** As {@link #start}, a process that ignores SIGTERM (it goes only with SIGKILL). */
    public static Process startIgnoringSigterm(RunDirMarker marker, String hostId) {
        return start(marker, hostId, "trap '' TERM; ");
    }

    /** The marker and the id are the shell's $0 and $1, on its command line; returns once the setup ran. */
    private static Process start(RunDirMarker marker, String hostId, String setup) {
        try {
            Process process = new ProcessBuilder("sh", "-c", setup + "echo ready; read x", marker.argument(),
                    "--steadfast.host.id=" + hostId).redirectErrorStream(true).start();
            assertThat(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                    .readLine()).as("stand-in %s of %s", hostId, marker.runDir()).isEqualTo("ready");
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start a stand-in host with sh", e);
        }
    }
}

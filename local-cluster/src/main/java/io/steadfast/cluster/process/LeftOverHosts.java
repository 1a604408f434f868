package io.steadfast.cluster.process;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host processes of one local cluster that outlived their router, found in the process table: every process of
 * this user whose command line carries the cluster's {@link RunDirMarker}, whoever its parent is now. A router stops
 * the hosts it started when it shuts down, but one that was killed (a crash, or SIGKILL at the end of its shutdown grace
 * on a loaded machine) leaves them running, registered or still starting, and a router that takes over knows only
 * those that registered. Found this way they need no router to answer, and no fault endpoint.
 */
public final class LeftOverHosts {

    private static final Pattern HOST_ID = Pattern.compile("--steadfast\\.host\\.id=(\\S+)");
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final RunDirMarker marker;

    public LeftOverHosts(RunDirMarker marker) {
        this.marker = marker;
    }

    /** The processes that carry the marker now, this JVM excepted, in pid order. */
    public List<ProcessHandle> find() {
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses().filter(process -> process.pid() != self && marker.isOn(process.info()))
                .sorted(Comparator.comparingLong(ProcessHandle::pid)).toList();
    }

    /**
     * Stops every process that carries the marker: SIGTERM to all at once, then SIGKILL to each that still runs after
     * {@code grace}; returns what it stopped, in pid order (empty if none ran).
     */
    public List<Stopped> stop(Duration grace) {
        List<ProcessHandle> found = find();
        List<String> names = found.stream().map(LeftOverHosts::name).toList(); // read before they are gone
        found.forEach(ProcessHandle::destroy);
        Instant deadline = Instant.now().plus(grace);
        List<Stopped> stopped = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            ProcessHandle process = found.get(i);
            boolean killed = !awaitExit(process, Duration.between(Instant.now(), deadline));
            if (killed) {
                process.destroyForcibly();
                awaitExit(process, KILL_WAIT);
            }
            stopped.add(new Stopped(names.get(i), process.pid(), killed));
        }
        return stopped;
    }

    /** The host id on its command line ({@code --steadfast.host.id=host-3}), or "a host" if it cannot be read. */
    private static String name(ProcessHandle process) {
        return process.info().commandLine().map(HOST_ID::matcher).filter(Matcher::find).map(m -> m.group(1))
                .orElse("a host");
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        try {
            process.onExit().get(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return !process.isAlive();
        } catch (ExecutionException e) {
            return !process.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /**
     * A host process that was stopped.
     *
     * @param name its host id, as its command line gives it
     * @param killed whether it had to be killed (SIGKILL) after the grace
     */
    public record Stopped(String name, long pid, boolean killed) {

        /** For messages: {@code host-3 (pid 4711)}, or {@code host-3 (pid 4711, killed)}. */
        public String describe() {
            return name + " (pid " + pid + (killed ? ", killed" : "") + ")";
        }
    }
}

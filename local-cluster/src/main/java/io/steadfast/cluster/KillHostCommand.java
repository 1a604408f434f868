package io.steadfast.cluster;

import io.steadfast.cluster.client.HostView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.RouterRequestException;
import io.steadfast.runtime.plan.HostId;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code steadfast kill-host <host-id> [--router-port N]}: crashes one host of a running local cluster so that the
 * router's failure detection and global recovery can be watched. The host is looked up in the router's
 * {@code /api/v1/hosts}; its process, found on this machine by its command line ({@code --steadfast.host.id} and
 * {@code --steadfast.host.router-url}, as the launcher starts hosts), is killed with SIGKILL, the realistic failure.
 * Only when no such process is visible (another user's, or a platform that hides command lines) does it fall back
 * to the host's fault-injection endpoint, {@code POST /api/v1/fault/kill}, which halts the JVM the same way.
 */
final class KillHostCommand {

    static final String USAGE = """
            Usage: steadfast kill-host <host-id> [--router-port N]
            Crashes a host of a running local cluster: kill -9 of its process (found by its command line), or, if the
            process is not visible here, POST /api/v1/fault/kill on the host (fault injection, enabled in the local
            cluster). The launcher then shows the failure detection and recovery; with --replace-failed-hosts (its
            default) it also starts a fresh host.

              --router-port N   the cluster's router port (default %d)
            """.formatted(LaunchOptions.DEFAULT_ROUTER_PORT);

    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    private final RouterClient router;
    private final PrintStream out;

    KillHostCommand(RouterClient router, PrintStream out) {
        this.router = router;
        this.out = out;
    }

    /** Parses the arguments after {@code kill-host} and runs; returns the exit code. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        String hostId = null;
        int routerPort = LaunchOptions.DEFAULT_ROUTER_PORT;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            try {
                if (arg.equals("--router-port") && i + 1 < args.size()) {
                    routerPort = Integer.parseInt(args.get(++i));
                } else if (arg.startsWith("--router-port=")) {
                    routerPort = Integer.parseInt(arg.substring("--router-port=".length()));
                } else if (!arg.startsWith("--") && hostId == null) {
                    hostId = arg;
                } else {
                    err.println("Unexpected argument '" + arg + "'.");
                    err.print(USAGE);
                    return 2;
                }
            } catch (NumberFormatException e) {
                err.println("--router-port needs a whole number, was '" + args.get(i) + "'");
                return 2;
            }
        }
        if (hostId == null) {
            err.println("Name the host to kill, e.g. host-2 (see the launcher's output or GET /api/v1/hosts).");
            err.print(USAGE);
            return 2;
        }
        try {
            new KillHostCommand(new RouterClient(URI.create("http://127.0.0.1:" + routerPort)), out).kill(new HostId(hostId));
            return 0;
        } catch (RouterRequestException | IllegalStateException | IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        }
    }

    /** Kills the host's process, or asks the host to halt itself if its process is not visible. */
    void kill(HostId id) {
        List<HostView> hosts = router.hosts();
        HostView host = hosts.stream().filter(h -> h.hostId().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("The router at " + router.baseUrl() + " knows no host '"
                        + id + "'; its hosts: " + hosts.stream().map(h -> h.hostId() + " (" + h.status() + ")")
                        .collect(Collectors.joining(", ")) + ". Pass --router-port if the cluster runs on another port."));
        if (!host.isLive()) {
            out.println("Note: the router lists " + id + " as " + host.status() + ".");
        }
        Optional<ProcessHandle> process = hostProcess(id, router.baseUrl());
        if (process.isPresent()) {
            long pid = process.get().pid();
            if (!process.get().destroyForcibly()) {
                throw new IllegalStateException("Could not send SIGKILL to " + id + " (pid " + pid + ")");
            }
            boolean gone = process.get().onExit().completeOnTimeout(null, EXIT_WAIT.toMillis(),
                    java.util.concurrent.TimeUnit.MILLISECONDS).join() != null || !process.get().isAlive();
            out.println("Killed " + id + " (pid " + pid + ") with SIGKILL" + (gone ? "" : "; it has not exited yet")
                    + ". Watch the launcher's output for the recovery, or GET " + router.baseUrl() + "/api/v1/recoveries");
            return;
        }
        URI fault = URI.create(host.controlUrl()).resolve("/api/v1/fault/kill");
        int status = post(fault);
        if (status == 404) {
            throw new IllegalStateException("No process of " + id + " is visible here and its fault injection is off ("
                    + fault + " answered 404); start hosts with steadfast.host.fault-injection.enabled=true or kill it"
                    + " where it runs");
        }
        if (status / 100 != 2) {
            throw new IllegalStateException("POST " + fault + " answered HTTP " + status);
        }
        out.println("Asked " + id + " to halt (POST " + fault + ", fault injection). Watch the launcher's output for"
                + " the recovery, or GET " + router.baseUrl() + "/api/v1/recoveries");
    }

    /** The host process started for this router, recognised by the two arguments the launcher gives every host. */
    static Optional<ProcessHandle> hostProcess(HostId id, URI routerUrl) {
        String idArg = "--steadfast.host.id=" + id.value();
        String routerArg = "--steadfast.host.router-url=" + routerUrl;
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(List::of)
                        .map(arguments -> arguments.contains(idArg) && arguments.contains(routerArg))
                        .orElse(false))
                .findFirst();
    }

    private static int post(URI uri) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
                    .send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("POST " + uri + " failed: " + e + "; is the host still running?", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking the host to halt", e);
        }
    }
}

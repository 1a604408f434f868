package io.steadfast.router.scheduling.local;

import io.steadfast.router.failure.DetectionCause;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.HostRegistry;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.scheduling.FailedHost;
import io.steadfast.router.scheduling.HostProvisioner;
import io.steadfast.router.scheduling.SchedulingProperties;
import io.steadfast.router.scheduling.SchedulingThread;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps host processes on this machine: as many LIVE hosts of each kind as {@code steadfast.router.scheduling.pe-hosts}
 * and {@code voters} say, whoever started them, counting its own children that are still starting; a missing one is
 * started as a fresh host with a new number ({@code host-<n>}, {@code voter-<n>}), never under a failed host's id. A
 * failed host that it started is killed if its process still runs (frozen, or cut off), before its replacement starts.
 * Its children stop with the router ({@link #close()}), not when it only stops acting ({@link #stop()}): a standby
 * router that takes over leads them. Each child's command line names the run directory
 * ({@code -D}{@value #RUN_DIR_PROPERTY}{@code =<absolute run-dir>}), so that whoever started the router can find and stop
 * the hosts a killed router left behind, registered or still starting. After a
 * start it waits the hosts' restart grace before starting any, so that hosts alive across a router restart
 * re-register first. A child that exits before it registered holds back the next start of its kind for
 * {@link #CRASH_BACKOFF}. Runs on one thread, {@code steadfast-router-local-hosts}.
 */
public final class LocalHostProvisioner implements HostProvisioner, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalHostProvisioner.class);
    /**
     * The system property on every host's command line that names its run directory: the local-cluster launcher
     * ({@code RunDirMarker}, which spells the same name) stops the processes that carry its own.
     */
    public static final String RUN_DIR_PROPERTY = "steadfast.local.run-dir";
    static final Duration CRASH_BACKOFF = Duration.ofSeconds(10);
    private static final Set<DetectionCause> PROCESS_GONE = Set.of(DetectionCause.HEARTBEAT_TIMEOUT,
            DetectionCause.DATA_PLANE_DISCONNECT);

    private final SchedulingProperties.Local settings;
    private final Map<HostKind, Integer> targets = new EnumMap<>(HostKind.class);
    private final Supplier<String> routerUrl;
    private final URI checkpointUrl;
    private final HostRegistry hosts;
    private final HeartbeatFailureDetector detector;
    private final Clock clock;
    private final Duration restartGrace;
    private final Map<HostId, HostProcess> children = new ConcurrentHashMap<>();
    private final Map<HostKind, Instant> startsHeldUntil = new ConcurrentHashMap<>();
    /** The highest number given to a host of each kind, so that no number is given twice. */
    private final Map<HostKind, Integer> highestGiven = new ConcurrentHashMap<>();
    private final SchedulingThread thread;
    /** Held while a child starts and while {@link #close()} takes the children to stop. */
    private final Object starts = new Object();
    /** Set by {@link #close()}: no child starts after it. Guarded by {@link #starts}. */
    private boolean closed;

    /**
     * @param routerUrl the URL (or URLs, comma separated) hosts register with (read at each start: the router's port
     *                  is known once it serves)
     * @param checkpointUrl the checkpoint-service URL, unless the settings name one
     * @param restartGrace how long after a start hosts may take to re-register: nothing is started before
     */
    public LocalHostProvisioner(SchedulingProperties settings, Supplier<String> routerUrl, URI checkpointUrl,
                                HostRegistry hosts, HeartbeatFailureDetector detector, Clock clock,
                                Duration restartGrace) {
        this.settings = settings.local();
        this.targets.put(HostKind.PE, settings.peHosts());
        this.targets.put(HostKind.VOTER, settings.voters());
        this.routerUrl = routerUrl;
        this.checkpointUrl = this.settings.checkpointUrl() == null ? checkpointUrl : this.settings.checkpointUrl();
        this.hosts = hosts;
        this.detector = detector;
        this.clock = clock;
        this.restartGrace = restartGrace;
        this.thread = new SchedulingThread("steadfast-router-local-hosts", clock);
    }

    @Override
    public void start() {
        if (thread.start(settings.reconcileInterval(), () -> guarded(this::reconcile))) {
            LOG.info("Host scheduling on this machine started: keeps {} PE hosts and {} voters, logs in {}",
                    targets.get(HostKind.PE), targets.get(HostKind.VOTER), settings.runDir().toAbsolutePath());
        }
    }

    @Override
    public void stop() {
        thread.stop();
    }

    @Override
    public boolean isRunning() {
        return thread.isRunning();
    }

    @Override
    public void hostFailed(FailedHost host) {
        thread.execute(() -> guarded(() -> {
            HostProcess child = children.get(host.id());
            if (child != null && child.isAlive() && PROCESS_GONE.contains(host.cause())) {
                child.kill();
                LOG.info("Killed host {}, declared DEAD ({}) while its process still ran", child.describe(),
                        host.cause());
            }
            reconcile();
        }));
    }

    /**
     * Stops acting, then every host it started, registered or still starting: SIGTERM, and SIGKILL after the stop
     * grace. No host starts afterwards, not even from a reconciliation that outlived {@link #stop()}'s wait.
     */
    @Override
    public void close() {
        stop();
        List<HostProcess> running;
        synchronized (starts) {
            closed = true;
            running = children.values().stream().filter(HostProcess::isAlive).toList();
        }
        running.forEach(HostProcess::requestStop);
        Instant deadline = Instant.now().plus(settings.stopGrace());
        for (HostProcess child : running) {
            if (!child.awaitExit(Duration.between(Instant.now(), deadline))) {
                child.kill();
            }
        }
        if (!running.isEmpty()) {
            LOG.info("Stopped the hosts this router started: {}", running.stream().map(HostProcess::id).toList());
        }
    }

    /** The hosts it started and that still run. */
    public List<HostId> runningChildren() {
        return children.values().stream().filter(HostProcess::isAlive).map(HostProcess::id).sorted().toList();
    }

    private void reconcile() {
        if (clock.instant().isBefore(thread.startedAt().plus(restartGrace))) {
            return;
        }
        Set<HostId> live = detector.liveHosts().stream().map(RegisteredHost::id).collect(Collectors.toSet());
        forgetEnded(live);
        for (HostKind kind : HostKind.values()) {
            int target = targets.getOrDefault(kind, 0);
            long liveOfKind = detector.liveHosts().stream().filter(host -> host.kind() == kind).count();
            long starting = children.values().stream().filter(child -> child.kind() == kind && child.isAlive()
                    && !live.contains(child.id())).count();
            Instant held = startsHeldUntil.getOrDefault(kind, Instant.MIN);
            for (long missing = target - liveOfKind - starting; missing > 0 && clock.instant().isAfter(held);
                 missing--) {
                startHost(kind);
            }
        }
    }

    /** Drops the children that ended; one that ended before it ever registered holds back its kind's next start. */
    private void forgetEnded(Set<HostId> live) {
        for (HostProcess child : List.copyOf(children.values())) {
            if (child.isAlive()) {
                continue;
            }
            children.remove(child.id());
            if (hosts.find(child.id()).isEmpty()) {
                startsHeldUntil.put(child.kind(), clock.instant().plus(CRASH_BACKOFF));
                LOG.warn("Host {} ended before it registered; the next {} host starts in {}. See its log",
                        child.describe(), child.kind(), CRASH_BACKOFF);
            }
        }
    }

    private void startHost(HostKind kind) {
        synchronized (starts) {
            if (closed) {
                return;
            }
            HostId id = nextId(kind);
            Path jar = kind == HostKind.VOTER ? settings.voterJar() : settings.peHostJar();
            HostProcess child = HostProcess.start(id, kind, jar, jvmArgs(settings), hostArgs(id),
                    settings.runDir().resolve(id.value() + ".log"));
            children.put(id, child);
            LOG.info("Started host {} ({}) to keep {} {} hosts", child.describe(), kind, targets.get(kind), kind);
        }
    }

    /**
     * The run directory's marker first (so that it survives a command line cut short where the process table is
     * read), then the configured JVM arguments and the operator jars.
     */
    private static List<String> jvmArgs(SchedulingProperties.Local settings) {
        List<String> jvmArgs = new ArrayList<>();
        jvmArgs.add("-D" + RUN_DIR_PROPERTY + "=" + settings.runDir().toAbsolutePath().normalize());
        jvmArgs.addAll(settings.jvmArgs());
        if (!settings.operatorJars().isEmpty()) {
            jvmArgs.add("-Dloader.path=" + settings.operatorJars().stream().map(p -> p.toAbsolutePath().toString())
                    .collect(Collectors.joining(",")));
        }
        return jvmArgs;
    }

    private List<String> hostArgs(HostId id) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--steadfast.host.id=" + id.value(),
                "--steadfast.host.router-url=" + routerUrl.get(), "--steadfast.host.checkpoint-url=" + checkpointUrl,
                "--steadfast.host.data.bind-address=tcp://127.0.0.1:*"));
        args.addAll(settings.hostSettings());
        return args;
    }

    /** {@code host-<n>} or {@code voter-<n>}, past the highest number any registered host or child has. */
    private HostId nextId(HostKind kind) {
        String prefix = kind == HostKind.VOTER ? "voter-" : "host-";
        int highest = Stream.concat(hosts.all().stream().map(RegisteredHost::id), children.keySet().stream())
                .map(HostId::value).filter(id -> id.startsWith(prefix) && id.substring(prefix.length())
                        .matches("\\d{1,9}"))
                .mapToInt(id -> Integer.parseInt(id.substring(prefix.length()))).max().orElse(0);
        int next = Math.max(highest, highestGiven.getOrDefault(kind, 0)) + 1;
        highestGiven.put(kind, next);
        return new HostId(prefix + next);
    }

    private static void guarded(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            LOG.error("Host scheduling on this machine failed; retried on the next reconciliation", e);
        }
    }
}

package io.steadfast.router.config;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointMeters;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.checkpoint.CheckpointSettings;
import io.steadfast.router.checkpoint.CompletionNotices;
import io.steadfast.router.checkpoint.HttpCheckpointRecords;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.failure.HostAdmission;
import io.steadfast.router.failure.HostMeters;
import io.steadfast.router.failure.HostLivenessMonitor;
import io.steadfast.router.failure.OwnPauseWatch;
import io.steadfast.router.failure.OwnPauses;
import io.steadfast.router.failure.HttpHostProbe;
import io.steadfast.router.failure.SuspicionChecker;
import io.steadfast.router.host.HostAssignments;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.HostRegistry;
import io.steadfast.router.host.InMemoryHostRegistry;
import io.steadfast.router.host.RestHostClient;
import io.steadfast.router.leadership.Leadership;
import io.steadfast.router.leadership.RouterStartup;
import io.steadfast.router.model.TopologyModels;
import io.steadfast.router.placement.EvenTaskPlacer;
import io.steadfast.router.placement.StandbyHosts;
import io.steadfast.router.placement.TaskPlacer;
import io.steadfast.router.recovery.RecoveryLog;
import io.steadfast.router.recovery.RecoveryMeters;
import io.steadfast.router.recovery.RecoveryOrchestrator;
import io.steadfast.router.topology.InMemoryTopologyRepository;
import io.steadfast.router.topology.ResultReader;
import io.steadfast.router.topology.VoteReader;
import io.steadfast.router.topology.TopologyDeployer;
import io.steadfast.router.topology.TopologyMonitor;
import io.steadfast.router.topology.TopologyProgress;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.topology.TopologyLimits;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Wires the router's decisions. The operator catalog is {@link OperatorRegistry#load()}: the built-in operators
 * plus every {@code OperatorProvider} on the router's class path, so the router must have the same operator jars
 * as the hosts, or it rejects (or accepts) types the hosts do not know.
 */
@Configuration(proxyBeanMethods = false)
class RouterConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    OperatorRegistry operatorCatalog() {
        return OperatorRegistry.load();
    }

    @Bean
    HostRegistry hostRegistry() {
        return new InMemoryHostRegistry();
    }

    /**
     * In memory, and written behind to MongoDB when {@code spring.mongodb.uri} is set ({@link MongoRouterRecords},
     * which also closes it).
     */
    @Bean(destroyMethod = "")
    TopologyRepository topologyRepository(ObjectProvider<MongoRouterRecords> stored) {
        MongoRouterRecords records = stored.getIfAvailable();
        return records == null ? new InMemoryTopologyRepository() : records.topologies();
    }

    @Bean
    HostAssignments hostAssignments(TopologyRepository topologies) {
        return new HostAssignments(topologies);
    }

    /**
     * A pause of the router of half the heartbeat timeout or more is noticed: one just shorter, added to the hosts'
     * heartbeat interval (a quarter of the timeout), still leaves a host that keeps heartbeating inside its timeout.
     */
    @Bean(destroyMethod = "close")
    OwnPauseWatch ownPauseWatch(Clock clock, RouterProperties properties) {
        return OwnPauseWatch.started(clock, properties.heartbeatTimeout().dividedBy(2));
    }

    @Bean
    HeartbeatFailureDetector heartbeatFailureDetector(HostRegistry hosts, Clock clock, RouterProperties properties,
                                                      OwnPauses ownPauses) {
        return new HeartbeatFailureDetector(hosts, clock, properties.heartbeatTimeout(), properties.hostStartupGrace(),
                ownPauses);
    }

    @Bean(destroyMethod = "close")
    SuspicionChecker suspicionChecker(HeartbeatFailureDetector detector, Clock clock, RouterProperties properties) {
        RouterProperties.Suspicion settings = properties.suspicion();
        return new SuspicionChecker(detector, new HttpHostProbe(client(settings.probeTimeout(),
                settings.probeTimeout()).build()),
                clock, settings.minSilence(), settings.enabled(), settings.refusedIsDead());
    }

    @Bean(destroyMethod = "close")
    HostLivenessMonitor hostLivenessMonitor(HeartbeatFailureDetector detector) {
        return new HostLivenessMonitor(detector);
    }

    @Bean
    TaskPlacer taskPlacer() {
        return new EvenTaskPlacer();
    }

    /** A router that runs alone leads for good, in epoch 0; among replicas {@code RouterStartup} provides it. */
    @Bean
    @ConditionalOnMissingBean(Leadership.class)
    Leadership soleLeadership(Environment environment) {
        return Leadership.sole(RouterStartup.advertisedUrl(environment));
    }

    /** Health component {@code leadership}: this router leads, in which epoch. */
    @Bean
    HealthIndicator leadershipHealthIndicator(Leadership leadership) {
        return () -> Health.up().withDetail("role", "LEADER").withDetail("epoch", leadership.epoch())
                .withDetail("leader", leadership.leaderUrl().map(Object::toString).orElse("")).build();
    }

    /**
     * Every call names this router's leadership epoch: a host refuses calls of an epoch below the highest it has
     * seen, so that a deposed leader that still runs cannot act on it.
     */
    @Bean
    HostClient hostClient(RouterProperties properties, Leadership leadership) {
        return RestHostClient.over(client(properties.hostClient().connectTimeout(),
                properties.hostClient().readTimeout())
                .defaultHeader(Leadership.EPOCH_HEADER, Long.toString(leadership.epoch())));
    }

    @Bean
    RecoveryCallsWarmUp recoveryCallsWarmUp(HostClient hostClient) {
        return new RecoveryCallsWarmUp(hostClient);
    }

    @Bean
    StandbyHosts standbyHosts(RouterProperties properties) {
        return new StandbyHosts(properties.standbyHosts());
    }

    @Bean
    TopologyDeployer topologyDeployer(RouterProperties properties, OperatorRegistry catalog,
                                      TopologyRepository topologies, HeartbeatFailureDetector detector,
                                      TaskPlacer placer, HostClient hostClient, Clock clock, StandbyHosts standby) {
        TopologyLimits limits = properties.limits().toTopologyLimits();
        return new TopologyDeployer(new TopologyDeployer.SpecChecks(TopologySpecReader.withLimits(limits),
                new TopologyValidator(catalog, limits), limits.maxSpecBytes()), topologies, detector, placer,
                hostClient, clock, standby);
    }

    /** Tells the hosts of a topology, off the coordinator's thread, that one of its checkpoints completed. */
    @Bean(destroyMethod = "close")
    CompletionNotices completionNotices(HeartbeatFailureDetector detector, HostClient hostClient) {
        return new CompletionNotices(detector, hostClient);
    }

    @Bean
    TopologyProgress topologyProgress(HeartbeatFailureDetector detector) {
        return new TopologyProgress(detector);
    }

    /** The checkpoint-service over HTTP, unless a {@code CheckpointRecords} bean is registered already. */
    @Bean
    @ConditionalOnMissingBean(CheckpointRecords.class)
    CheckpointRecords checkpointRecords(RouterProperties properties) {
        return new HttpCheckpointRecords(client(properties.hostClient().connectTimeout(),
                properties.hostClient().readTimeout())
                .baseUrl(properties.checkpoint().serviceUrl().toString()).build(), properties.checkpoint().serviceUrl());
    }

    /** The calls that start checkpoints at the hosts, off the coordinators' lock. */
    @Bean(destroyMethod = "shutdownNow")
    ExecutorService checkpointTriggerCalls() {
        return Executors.newCachedThreadPool(new DaemonThreads("steadfast-router-checkpoint-trigger"));
    }

    @Bean(destroyMethod = "close")
    CheckpointCoordinators checkpointCoordinators(TopologyRepository topologies, CheckpointRecords records,
                                                  HeartbeatFailureDetector detector, HostClient hostClient,
                                                  TopologyProgress progress, Clock clock, RouterProperties properties,
                                                  CompletionNotices completionNotices,
                                                  ExecutorService checkpointTriggerCalls) {
        RouterProperties.Checkpoint settings = properties.checkpoint();
        CheckpointCoordinators coordinators = new CheckpointCoordinators(topologies, records,
                (hostId, topology, checkpointId) -> hostClient.triggerCheckpoint(detector.host(hostId)
                        .orElseThrow(() -> new HostCallException(hostId, "host " + hostId + " is not registered", null)),
                        topology, checkpointId),
                progress, clock, new CheckpointSettings(settings.interval(), settings.timeout(),
                settings.maxConcurrent()), completionNotices, checkpointTriggerCalls);
        coordinators.start(Duration.ofMillis(Math.max(10, Math.min(100, settings.interval().toMillis() / 4))));
        return coordinators;
    }

    @Bean
    RecoveryLog recoveryLog(ObjectProvider<MongoRouterRecords> stored) {
        MongoRouterRecords records = stored.getIfAvailable();
        return records == null ? new RecoveryLog() : records.recoveryLog();
    }

    @Bean(destroyMethod = "close")
    RecoveryOrchestrator recoveryOrchestrator(TopologyRepository topologies, HeartbeatFailureDetector detector,
                                              TaskPlacer placer, HostClient hostClient, CheckpointRecords records,
                                              CheckpointCoordinators coordinators, TopologyProgress progress,
                                              RecoveryLog log, Clock clock, StandbyHosts standby,
                                              ObjectProvider<MongoRouterRecords> stored, SuspicionChecker suspicions,
                                              TopologyModels models) {
        RecoveryOrchestrator orchestrator = RecoveryOrchestrator.builder().topologies(topologies).detector(detector)
                .placer(placer).hostClient(hostClient).checkpoints(records, coordinators).progress(progress).log(log)
                .clock(clock).standby(standby).forecaster(models::forecast).build();
        // the snapshots of a suspected host's tasks are fetched ahead while its failure is confirmed
        suspicions.onSuspected(orchestrator::prefetchFor);
        MongoRouterRecords storedRecords = stored.getIfAvailable();
        if (storedRecords == null) {
            orchestrator.resumeAfterRestart();
        } else {
            storedRecords.whenLoaded(orchestrator::resumeAfterRestart); // the log is empty until then
        }
        orchestrator.start(RecoveryOrchestrator.PROGRESS_CHECK);
        return orchestrator;
    }

    /**
     * After a restart, hosts alive across it re-register with their next heartbeat once the router accepts
     * requests; a host of a stored placement that has not done so within the startup grace (at least two
     * heartbeat timeouts) after the router became ready is taken as dead and its topologies recovered. Then the
     * topologies whose recovery the restart interrupted are recovered afresh. If the stored records could not be
     * loaded at start-up, all this starts once they are.
     */
    @Bean
    HostAdmission hostAdmission(HostRegistry hosts, HeartbeatFailureDetector detector, Clock clock,
                                RecoveryOrchestrator orchestrator) {
        return new HostAdmission(hosts, detector, clock, orchestrator::isHandlingFailureOf);
    }

    @Bean
    ApplicationListener<ApplicationReadyEvent> neverSeenHostsCheck(RecoveryOrchestrator orchestrator,
                                                                   RouterProperties properties,
                                                                   ObjectProvider<MongoRouterRecords> stored) {
        Duration twoTimeouts = properties.heartbeatTimeout().multipliedBy(2);
        Duration grace = properties.hostStartupGrace().compareTo(twoTimeouts) > 0 ? properties.hostStartupGrace()
                : twoTimeouts;
        MongoRouterRecords records = stored.getIfAvailable();
        return event -> {
            if (records == null) {
                orchestrator.scheduleNeverSeenCheck(grace);
            } else {
                records.whenLoaded(() -> orchestrator.scheduleNeverSeenCheck(grace));
            }
        };
    }

    @Bean
    TopologyMonitor topologyMonitor(TopologyRepository topologies, HeartbeatFailureDetector detector,
                                    CheckpointCoordinators coordinators, RecoveryLog recoveries) {
        return new TopologyMonitor(topologies, detector, coordinators, recoveries);
    }

    /**
     * The router's meters of checkpoints, recoveries and hosts (see {@link CheckpointMeters}, {@link RecoveryMeters},
     * {@link HostMeters}), fed where checkpoints and recoveries end.
     */
    @Bean
    MeterBinder routerMeters(CheckpointCoordinators coordinators, RecoveryLog recoveries, HostRegistry hosts,
                             HeartbeatFailureDetector detector) {
        return registry -> {
            coordinators.onOutcome(new CheckpointMeters(registry));
            recoveries.onSaved(new RecoveryMeters(registry));
            new HostMeters(hosts, detector).bindTo(registry);
        };
    }

    /** The router's count of version task failures, as the counter {@code steadfast.votes.failed}. */
    @Bean
    MeterBinder voteFailureMeters(RecoveryOrchestrator recoveries) {
        return recoveries.taskFailures();
    }

    @Bean
    VoteReader voteReader(TopologyRepository topologies, HeartbeatFailureDetector detector, HostClient hostClient,
                          RecoveryOrchestrator recoveries) {
        return new VoteReader(topologies, detector, hostClient, recoveries::taskFailures);
    }

    @Bean
    ResultReader resultReader(TopologyRepository topologies, HeartbeatFailureDetector detector, HostClient hostClient) {
        return new ResultReader(topologies, detector, hostClient);
    }

    /**
     * A client for the router's calls to other services: blocking HTTP/1.1 ({@code HttpURLConnection}, kept-alive
     * connections reused) with the timeouts given, each request made on the calling thread (see
     * {@code ServiceClients} of the host for why not the JDK {@code HttpClient}).
     */
    private static RestClient.Builder client(Duration connectTimeout, Duration readTimeout) {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(connectTimeout);
        requests.setReadTimeout(readTimeout);
        return RestClient.builder().requestFactory(requests);
    }
}

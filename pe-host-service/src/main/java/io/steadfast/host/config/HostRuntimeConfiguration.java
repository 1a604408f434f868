package io.steadfast.host.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.steadfast.host.execution.DataPlaneMeters;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.TaskMeters;
import io.steadfast.host.fault.ProcessHalter;
import io.steadfast.host.registration.SuspicionReporter;
import io.steadfast.host.snapshot.CheckpointReporter;
import io.steadfast.host.snapshot.HttpSnapshotStore;
import io.steadfast.host.snapshot.ResilientSnapshotStore;
import io.steadfast.host.snapshot.SnapshotPrefetches;
import io.steadfast.host.snapshot.RouterCheckpointReporter;
import io.steadfast.host.snapshot.SnapshotRestorer;
import io.steadfast.host.snapshot.SnapshotStore;
import io.steadfast.host.snapshot.SnapshotUploader;
import io.steadfast.host.warmup.WarmUpSnapshots;
import io.steadfast.host.replaylog.ReplayLogShipper;
import io.steadfast.host.registration.HostLease;
import io.steadfast.host.registration.RouterClients;
import io.steadfast.protocol.router.RouterEpoch;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.dataplane.OutputLogSink;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.task.TaskSettings;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * Wires the Spring-free host runtime: operator registry, data plane, the snapshot uploader it reports
 * checkpoints to, and the {@link ProcessingNode} over them. The snapshot store is the checkpoint-service over
 * HTTP unless a bean named {@code snapshotStore} is already registered (several hosts sharing a store in one JVM).
 */
@Configuration(proxyBeanMethods = false)
class HostRuntimeConfiguration {

    @Bean
    OperatorRegistry operatorRegistry() {
        return OperatorRegistry.load();
    }

    @Bean
    @ConditionalOnMissingBean(name = "snapshotStore")
    SnapshotStore snapshotStore(HostProperties properties) {
        return new HttpSnapshotStore(ServiceClients.client(Duration.ofSeconds(1),
                properties.snapshots().requestTimeout()), properties.checkpointUrl());
    }

    @Bean
    ResilientSnapshotStore resilientSnapshotStore(@Qualifier("snapshotStore") SnapshotStore snapshotStore, HostProperties properties) {
        HostProperties.Snapshots settings = properties.snapshots();
        return new ResilientSnapshotStore(snapshotStore, settings.retryAttempts(), settings.retryWait(),
                settings.circuitOpenFor());
    }

    /** Restores from the checkpoint-service, but for the host's own warm-up topologies (kept in memory). */
    @Bean
    SnapshotRestorer snapshotRestorer(ResilientSnapshotStore store, WarmUpSnapshots warmUp) {
        return new SnapshotRestorer(warmUp.before(store));
    }

    @Bean
    SnapshotPrefetches snapshotPrefetches(SnapshotRestorer restorer) {
        return new SnapshotPrefetches(restorer);
    }

    /** The highest router leadership epoch this host has seen, shared by its calls to and from the router. */
    @Bean
    RouterEpoch routerEpoch() {
        return new RouterEpoch();
    }

    @Bean
    RouterClients routerClients(HostProperties properties, RouterEpoch epoch) {
        return new RouterClients(properties.routerUrl(), epoch);
    }

    @Bean
    CheckpointReporter checkpointReporter(HostProperties properties, RouterClients routers) {
        return new RouterCheckpointReporter(routers.client(Duration.ofSeconds(1), Duration.ofSeconds(5)),
                new HostId(properties.id()));
    }

    @Bean(destroyMethod = "close")
    SnapshotUploader snapshotUploader(ResilientSnapshotStore store, CheckpointReporter reporter,
                                      HostProperties properties) {
        return new SnapshotUploader(store, reporter, properties.snapshots().uploadThreads(),
                properties.snapshots().uploadQueue());
    }

    /** Where the runtime's snapshots go: the uploader, but for the host's own warm-up topologies. */
    @Bean
    WarmUpSnapshots warmUpSnapshots(SnapshotUploader uploader) {
        return new WarmUpSnapshots(uploader);
    }

    /** The lease this host holds from the router; its data plane transmits only while it holds one. */
    @Bean
    HostLease hostLease() {
        return new HostLease();
    }

    /** Closed on shutdown (after the web server drained), which cancels every task and closes the data plane. */
    @Bean(destroyMethod = "close")
    ProcessingNode processingNode(HostProperties properties, OperatorRegistry registry, MeterRegistry meters,
                                  WarmUpSnapshots snapshots, ObjectProvider<ReplayLogShipper> shipper,
                                  HostLease lease) {
        OutputLogSink outputLogs = shipper.getIfAvailable();
        DataPlane dataPlane = DataPlane.start(DataPlaneConfig.defaults().withBindAddress(properties.data().bindAddress())
                .withCreditBytes(properties.data().creditBytes()).withAdvertisedHost(properties.data().advertisedHost()),
                outputLogs == null ? OutputLogSink.NONE : outputLogs);
        // a host whose lease lapsed sends nothing: the router may be moving its tasks (docs/design.md, "Fencing")
        dataPlane.gateTransmissions(() -> lease.holds(lease.now()));
        HostRuntime runtime = new HostRuntime(new HostId(properties.id()), registry, dataPlane, TaskSettings.defaults(),
                Clock.systemUTC(), snapshots);
        return new ProcessingNode(runtime, registry, new TaskMeters(meters, runtime), Clock.systemUTC(),
                properties.limits().toHostLimits());
    }

    /** The data plane's counters as meters (see {@link DataPlaneMeters}). */
    @Bean
    MeterBinder dataPlaneMeters(ProcessingNode node) {
        return new DataPlaneMeters(node.dataPlaneMetrics());
    }

    /** Reports dropped peer connections to the router, unless {@code steadfast.host.suspicions.enabled=false}. */
    @Bean(destroyMethod = "close")
    SuspicionReporter suspicionReporter(HostProperties properties, ProcessingNode node, RouterClients routers) {
        SuspicionReporter reporter = new SuspicionReporter(node.id(),
                routers.client(Duration.ofMillis(500), Duration.ofSeconds(1)), Clock.systemUTC(),
                properties.suspicions().minInterval());
        if (properties.suspicions().enabled()) {
            node.onPeerHostDisconnected(reporter::peerDisconnected);
        }
        return reporter;
    }

    @Bean
    @ConditionalOnMissingBean(ProcessHalter.class)
    ProcessHalter processHalter() {
        return status -> Runtime.getRuntime().halt(status);
    }
}

package io.steadfast.router.leadership;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Starts a router. Alone ({@code steadfast.router.leader-election.mode=none}) it starts at once. Among replicas it
 * first stands by ({@link StandbyServer} on its port, contending through a {@link LeaderElection}) and starts the
 * router's application context only once it leads, with the election in a parent context, so that a standby cannot
 * act in any way: it loads the records from MongoDB when it takes over, as a restarted router does, and the hosts,
 * which keep running their tasks meanwhile, re-register with it. A leader that may no longer act (its renew deadline
 * passed) halts at once, with status {@value #LOST_LEADERSHIP_STATUS}: an orderly shutdown would run code (flushes,
 * calls to hosts) that a deposed leader must not run; its supervisor (Kubernetes, or whoever started it) starts it
 * again as a standby.
 */
public final class RouterStartup {

    /** The exit status of a router that stopped leading. */
    public static final int LOST_LEADERSHIP_STATUS = 75;
    /** The router's records database when {@code spring.mongodb.uri} names none. */
    public static final String DEFAULT_DATABASE = "steadfast-router";

    private static final Logger LOG = LoggerFactory.getLogger(RouterStartup.class);

    private RouterStartup() {
    }

    /**
     * Runs the router whose application class is {@code application}; returns its context (after standing by for as
     * long as another router leads).
     */
    public static ConfigurableApplicationContext run(Class<?> application, String[] args)
            throws IOException, InterruptedException {
        ConfigurableApplicationContext bootstrap = new SpringApplicationBuilder(ElectionContext.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false).run(args);
        Environment environment = bootstrap.getEnvironment();
        LeaderElectionProperties settings = Binder.get(environment).bindOrCreate(LeaderElectionProperties.PREFIX,
                LeaderElectionProperties.class);
        if (settings.electionMode() == LeaderElectionProperties.Mode.NONE) {
            bootstrap.close();
            return new SpringApplicationBuilder(application).run(args);
        }
        URI self = advertisedUrl(environment);
        Optional<LeaderPodLabel> podLabel = Optional.empty();
        LeaseStore store;
        if (settings.electionMode() == LeaderElectionProperties.Mode.KUBERNETES) {
            KubernetesClient client = kubernetesClient(environment);
            String namespace = settings.namespace() != null ? settings.namespace()
                    : client.getNamespace() != null ? client.getNamespace() : "default";
            store = new KubernetesLeaseStore(client, namespace, settings.leaseName(),
                    (int) Math.max(1, settings.leaseDuration().toSeconds()));
            if (settings.podName() != null) {
                podLabel = Optional.of(new LeaderPodLabel(client, namespace, settings.podName()));
            }
        } else {
            store = mongoLeaseStore(settings, environment);
        }
        podLabel.ifPresent(LeaderPodLabel::standBy);
        LeaderElection election = new LeaderElection(store, self, settings, System::nanoTime, Clock.systemUTC(),
                RouterStartup::halt);
        bootstrap.getBeanFactory().registerSingleton("leaseStore", store);
        bootstrap.getBeanFactory().registerSingleton("leaderElection", election);
        try (StandbyServer standby = StandbyServer.start(bindAddress(environment), election)) {
            election.start().awaitLeadership();
        }
        LOG.info("Router {} starts acting as the leader (epoch {})", self, election.epoch());
        ConfigurableApplicationContext router = new SpringApplicationBuilder(application).parent(bootstrap).run(args);
        podLabel.ifPresent(LeaderPodLabel::lead);
        return router;
    }

    /**
     * A client configured as fabric8 finds it (the pod's service account in a cluster, else a kubeconfig), with
     * Spring Cloud Kubernetes' {@code spring.cloud.kubernetes.client.master-url}, {@code .namespace} and
     * {@code .trust-certs} over it where set: the same keys as the router's own client bean.
     */
    private static KubernetesClient kubernetesClient(Environment environment) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null));
        String prefix = "spring.cloud.kubernetes.client.";
        String master = environment.getProperty(prefix + "master-url");
        if (master != null && !master.isBlank()) {
            config.withMasterUrl(master.strip());
        }
        String namespace = environment.getProperty(prefix + "namespace");
        if (namespace != null && !namespace.isBlank()) {
            config.withNamespace(namespace.strip());
        }
        Boolean trustCerts = environment.getProperty(prefix + "trust-certs", Boolean.class);
        if (trustCerts != null) {
            config.withTrustCerts(trustCerts);
        }
        return new KubernetesClientBuilder().withConfig(config.build()).build();
    }

    private static LeaseStore mongoLeaseStore(LeaderElectionProperties settings, Environment environment) {
        String uri = environment.getProperty("spring.mongodb.uri");
        if (uri == null || uri.isBlank()) {
            throw new IllegalStateException(LeaderElectionProperties.PREFIX + ".mode=store keeps the lease in the"
                    + " router's MongoDB, but spring.mongodb.uri is not set; set it to the MongoDB every router"
                    + " replica shares, or use mode none for a single router");
        }
        return MongoLeaseStore.connect(uri, DEFAULT_DATABASE, settings.leaseName(), settings.retryPeriod());
    }

    /** {@code steadfast.router.advertised-url}, or this router's address and port on loopback. */
    public static URI advertisedUrl(Environment environment) {
        String advertised = environment.getProperty("steadfast.router.advertised-url");
        if (advertised != null && !advertised.isBlank()) {
            return URI.create(advertised.strip());
        }
        String address = environment.getProperty("server.address", "127.0.0.1");
        return URI.create("http://" + ("0.0.0.0".equals(address) ? "127.0.0.1" : address) + ":" + port(environment));
    }

    private static InetSocketAddress bindAddress(Environment environment) throws IOException {
        String address = environment.getProperty("server.address");
        return address == null || address.isBlank() ? new InetSocketAddress(port(environment))
                : new InetSocketAddress(InetAddress.getByName(address), port(environment));
    }

    private static int port(Environment environment) {
        return environment.getProperty("server.port", Integer.class, 8080);
    }

    private static void halt(String why) {
        LOG.error("Router halts (status {}) so that it cannot act after another router may have taken over: {}",
                LOST_LEADERSHIP_STATUS, why);
        Runtime.getRuntime().halt(LOST_LEADERSHIP_STATUS);
    }

    /** The parent context of a leading router: the election, its lease store, and the environment. */
    static final class ElectionContext {
    }
}

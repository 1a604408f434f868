package io.steadfast.router;

import static org.awaitility.Awaitility.await;

import io.steadfast.host.PeHostApplication;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;

/**
 * The router and pe-host-service applications started in this JVM on free ports, for the tests that check how the
 * real services work together. Settings go as command-line arguments, which win over each service's
 * application.yml; beans registered before a context starts replace the service's own of the same name (a shared
 * in-memory store, for instance). {@link #close()} stops the hosts, then the router.
 */
final class InProcessCluster implements AutoCloseable {

    private ConfigurableApplicationContext router;
    private final Map<String, ConfigurableApplicationContext> hosts;
    private final RestClient api;
    private final Builder builder;

    private InProcessCluster(ConfigurableApplicationContext router, Map<String, ConfigurableApplicationContext> hosts,
                             RestClient api, Builder builder) {
        this.router = router;
        this.hosts = hosts;
        this.api = api;
        this.builder = builder;
    }

    static Builder builder() {
        return new Builder();
    }

    /** A client of the router's API that answers error statuses as responses instead of throwing. */
    RestClient api() {
        return api;
    }

    ConfigurableApplicationContext router() {
        return router;
    }

    ConfigurableApplicationContext host(String id) {
        ConfigurableApplicationContext host = hosts.get(id);
        if (host == null) {
            throw new IllegalArgumentException("No host " + id + " in this cluster; hosts: " + hosts.keySet());
        }
        return host;
    }

    /**
     * Starts one more host with the cluster's settings and these (a replacement under the id of a stopped one, for
     * instance); it takes that id's place in this cluster.
     */
    ConfigurableApplicationContext startHost(String id, String... settings) {
        ConfigurableApplicationContext host = builder.startHost(id, urlOf(router), List.of(settings));
        ConfigurableApplicationContext before = hosts.put(id, host);
        if (before != null && before.isActive()) {
            before.close();
        }
        return host;
    }

    /**
     * Stops the router and starts a new one on the same port with the same settings and beans, as a restarted router
     * process would be: what it kept in memory is gone, the hosts re-register.
     */
    void restartRouter() {
        String port = router.getEnvironment().getProperty("local.server.port");
        router.close();
        router = builder.startRouter("--server.port=" + port);
    }

    /** Waits until the router lists every host of this cluster, each LIVE. */
    void awaitHostsLive(Duration atMost) {
        await("every host LIVE in the router").atMost(atMost).until(() -> {
            JsonNode listed = api.get().uri("/api/v1/hosts").retrieve().body(JsonNode.class);
            return listed.size() == hosts.size()
                    && listed.valueStream().allMatch(h -> h.get("status").asString().equals("LIVE"));
        });
    }

    /** The base URL of a started application's HTTP API. */
    static String urlOf(ConfigurableApplicationContext context) {
        return "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    @Override
    public void close() {
        List<ConfigurableApplicationContext> all = new ArrayList<>(hosts.values());
        all.add(router);
        for (ConfigurableApplicationContext context : all) {
            if (context.isActive()) {
                context.close();
            }
        }
    }

    /** What to start. */
    static final class Builder {

        private final List<String> routerSettings = new ArrayList<>();
        private final Map<String, Object> routerBeans = new LinkedHashMap<>();
        private final Map<String, List<String>> hostSettings = new LinkedHashMap<>();
        private final Map<String, Object> hostBeans = new LinkedHashMap<>();
        private Duration heartbeatInterval = Duration.ofMillis(100);

        /** A router setting, e.g. {@code --steadfast.router.checkpoint.interval=500ms}. */
        Builder routerSetting(String setting) {
            routerSettings.add(setting);
            return this;
        }

        /** A bean the router gets in place of its own of that name. */
        Builder routerBean(String name, Object bean) {
            routerBeans.put(name, bean);
            return this;
        }

        /** A host with this id and these settings beside the cluster's. */
        Builder host(String id, String... settings) {
            hostSettings.put(id, List.of(settings));
            return this;
        }

        /** A bean every host gets in place of its own of that name. */
        Builder hostBean(String name, Object bean) {
            hostBeans.put(name, bean);
            return this;
        }

        Builder heartbeatInterval(Duration interval) {
            heartbeatInterval = interval;
            return this;
        }

        /** Starts the router, then the hosts pointed at it; stops what started if one fails. */
        InProcessCluster start() {
            ConfigurableApplicationContext router = startRouter("--server.port=0");
            Map<String, ConfigurableApplicationContext> hosts = new LinkedHashMap<>();
            InProcessCluster cluster = new InProcessCluster(router, hosts, RestClient.builder().baseUrl(urlOf(router))
                    .defaultStatusHandler(HttpStatusCode::isError, (request, response) -> { }).build(), this);
            try {
                hostSettings.forEach((id, extra) -> hosts.put(id, startHost(id, urlOf(router), extra)));
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            return cluster;
        }

        private ConfigurableApplicationContext startRouter(String port) {
            List<String> settings = new ArrayList<>(List.of(port, "--spring.application.name=router-service"));
            settings.addAll(routerSettings);
            return withBeans(new SpringApplicationBuilder(RouterApplication.class), routerBeans)
                    .run(settings.toArray(String[]::new));
        }

        private ConfigurableApplicationContext startHost(String id, String routerUrl, List<String> extra) {
            List<String> settings = new ArrayList<>(List.of("--server.port=0",
                    "--spring.application.name=pe-host-service", "--steadfast.host.id=" + id,
                    "--steadfast.host.router-url=" + routerUrl,
                    "--steadfast.host.heartbeat-interval=" + heartbeatInterval.toMillis() + "ms"));
            settings.addAll(extra);
            return withBeans(new SpringApplicationBuilder(PeHostApplication.class), hostBeans)
                    .run(settings.toArray(String[]::new));
        }

        private static SpringApplicationBuilder withBeans(SpringApplicationBuilder builder, Map<String, Object> beans) {
            return beans.isEmpty() ? builder : builder.initializers(context -> beans.forEach(
                    (name, bean) -> context.getBeanFactory().registerSingleton(name, bean)));
        }
    }
}

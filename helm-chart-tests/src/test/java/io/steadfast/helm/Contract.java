package io.steadfast.helm;

import static io.steadfast.helm.ChartValues.nameOf;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings the chart promises each service (the configuration contract in docs/kubernetes.md): the keys of
 * each component's application.yaml and the values they must have, for the values the chart was rendered with.
 */
final class Contract {

    private static final String ROUTER_URL = "http://" + nameOf("router") + ":8080";
    private static final String CHECKPOINT_URL = "http://" + nameOf("checkpoint-service") + ":8082";
    private static final String EXTERNAL_MONGODB = "${STEADFAST_MONGODB_URI}";

    private Contract() {
    }

    static Map<String, String> router(ChartValues values) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server.port", "8080");
        settings.put("spring.mongodb.uri", values.externalMongoDb ? EXTERNAL_MONGODB
                : "mongodb://" + nameOf("mongodb") + ":27017/steadfast-router");
        settings.put("steadfast.router.advertised-url", "http://${POD_IP}:8080");
        settings.put("steadfast.router.leader-election.mode", "kubernetes");
        settings.put("steadfast.router.leader-election.lease-name", nameOf("router"));
        settings.put("steadfast.router.leader-election.pod-name", "${POD_NAME}");
        settings.put("steadfast.router.leader-election.lease-duration", values.leaderElection.leaseDuration());
        settings.put("steadfast.router.leader-election.renew-deadline", values.leaderElection.renewDeadline());
        settings.put("steadfast.router.leader-election.retry-period", values.leaderElection.retryPeriod());
        settings.put("steadfast.router.checkpoint.service-url", CHECKPOINT_URL);
        settings.put("steadfast.router.standby-hosts", String.valueOf(values.standbyHosts));
        settings.put("steadfast.router.scheduling.mode", "kubernetes");
        settings.put("steadfast.router.scheduling.pe-hosts", String.valueOf(values.activeHosts + values.standbyHosts));
        settings.put("steadfast.router.scheduling.voters", String.valueOf(values.voters));
        settings.put("steadfast.router.scheduling.kubernetes.pe-host-stateful-set", nameOf("pe-host"));
        settings.put("steadfast.router.scheduling.kubernetes.voter-stateful-set", nameOf("voter"));
        settings.put("steadfast.router.scheduling.kubernetes.instance", ChartValues.RELEASE);
        return settings;
    }

    /** A pe-host's (port 8081) or a voter's (port 8083) settings. */
    static Map<String, String> host(ChartValues values, int port) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server.port", String.valueOf(port));
        settings.put("steadfast.host.id", "${POD_NAME}");
        settings.put("steadfast.host.instance", "${POD_UID}");
        settings.put("steadfast.host.router-url", ROUTER_URL);
        settings.put("steadfast.host.advertised-url", "http://${POD_IP}:" + port);
        settings.put("steadfast.host.checkpoint-url", CHECKPOINT_URL);
        settings.put("steadfast.host.data.bind-address", "tcp://0.0.0.0:" + values.dataPort);
        settings.put("steadfast.host.data.advertised-host", "${POD_IP}");
        return settings;
    }

    static Map<String, String> checkpointService(ChartValues values) {
        return Map.of("server.port", "8082",
                "spring.mongodb.uri", values.externalMongoDb ? EXTERNAL_MONGODB : "mongodb://" + nameOf("mongodb") + ":27017");
    }

    static Map<String, String> opsDashboard() {
        return Map.of("server.port", "8090", "steadfast.dashboard.router-url", ROUTER_URL);
    }
}

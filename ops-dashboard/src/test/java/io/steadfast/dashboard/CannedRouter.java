package io.steadfast.dashboard;

/**
 * Router answers shaped like router-service's: two hosts (one DEAD, and naming no kind, as from a router older than
 * voter hosts), a RUNNING word count, a FAILED topology with
 * a failure text, and a topology that is listed but was cancelled before its detail was asked for.
 */
public final class CannedRouter {

    public static final String HOSTS = """
            [
              {"hostId": "host-1", "kind": "PE", "controlUrl": "http://127.0.0.1:9101",
               "dataEndpoint": "tcp://127.0.0.1:9201",
               "status": "LIVE", "lastHeartbeat": "2026-01-02T03:04:05.250Z",
               "tasks": [
                 {"task": "wordcount/source#0", "type": "generator", "status": "RUNNING", "recordsIn": 10,
                  "recordsOut": 10, "queuedFrames": 0, "malformedFrames": 0, "backpressuredMillis": 0, "failure": null},
                 {"task": "wordcount/count#0", "type": "keyed-count", "status": "RUNNING", "recordsIn": 10,
                  "recordsOut": 4, "queuedFrames": 0, "malformedFrames": 0, "backpressuredMillis": 0, "failure": null}
               ]},
              {"hostId": "host-2", "controlUrl": "http://127.0.0.1:9102", "dataEndpoint": "tcp://127.0.0.1:9202",
               "status": "DEAD", "lastHeartbeat": "2026-01-02T03:03:00Z", "tasks": []}
            ]""";

    public static final String TOPOLOGIES = """
            [
              {"id": "wordcount", "status": "RUNNING", "operators": ["source", "count"], "tasks": 2,
               "deployedAt": "2026-01-02T03:00:00Z"},
              {"id": "fraud", "status": "FAILED", "operators": ["scorer"], "tasks": 1,
               "deployedAt": "2026-01-02T03:01:00Z"},
              {"id": "cancelled", "status": "RUNNING", "operators": ["x"], "tasks": 1,
               "deployedAt": "2026-01-02T03:02:00Z"}
            ]""";

    public static final String WORDCOUNT = """
            {"id": "wordcount", "status": "RUNNING", "deployedAt": "2026-01-02T03:00:00Z",
             "spec": {"id": "wordcount", "operators": []},
             "tasks": [
               {"task": "wordcount/source#0", "host": "host-1", "hostStatus": "LIVE", "status": "RUNNING",
                "recordsIn": 10, "recordsOut": 10, "failure": null},
               {"task": "wordcount/count#0", "host": "host-1", "hostStatus": "LIVE", "status": "RUNNING",
                "recordsIn": 10, "recordsOut": 4, "failure": null}
             ],
             "operators": [
               {"operator": "source", "recordsIn": 10, "recordsOut": 10, "eventsPerSecond": 125.5},
               {"operator": "count", "recordsIn": 10, "recordsOut": 4, "eventsPerSecond": 40.0,
                "latencyMillis": 2.5, "outputWaitMillis": 1.25}
             ]}""";

    public static final String FRAUD = """
            {"id": "fraud", "status": "FAILED", "deployedAt": "2026-01-02T03:01:00Z", "spec": {},
             "tasks": [
               {"task": "fraud/scorer#0", "host": "host-2", "hostStatus": "DEAD", "status": "FAILED",
                "recordsIn": 3, "recordsOut": 0, "failure": "java.lang.IllegalStateException: model missing"}
             ],
             "operators": [
               {"operator": "scorer", "recordsIn": 3, "recordsOut": 0, "eventsPerSecond": 0.0}
             ]}""";

    public static final String HEALTH_UP = "{\"status\":\"UP\"}";
    public static final String HEALTH_DOWN = "{\"status\":\"DOWN\"}";

    private CannedRouter() {
    }

    /** A fake router answering all of the above; {@code /api/v1/topologies/cancelled} is left at 404. */
    public static FakeRouter start() {
        return FakeRouter.start()
                .answer("/api/v1/hosts", HOSTS)
                .answer("/api/v1/topologies", TOPOLOGIES)
                .answer("/api/v1/topologies/wordcount", WORDCOUNT)
                .answer("/api/v1/topologies/fraud", FRAUD)
                .answer("/actuator/health", HEALTH_UP);
    }
}

package io.steadfast.dashboard.overview;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.CannedRouter;
import io.steadfast.dashboard.FakeRouter;
import io.steadfast.dashboard.router.RouterClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The page's JSON is the dashboard's own contract: static/app.js reads exactly these members, and nothing more is sent. */
class OverviewJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:05:00Z"), ZoneOffset.UTC);

    @Test
    void writesWhatThePageShowsOfTheRoutersHostsAndTopologies() {
        String written;
        String routerUrl;
        try (FakeRouter router = CannedRouter.start()) {
            routerUrl = router.url().toString();
            RouterClient client = new RouterClient(router.url(), Duration.ofSeconds(5), Duration.ofSeconds(5), JSON);
            written = JSON.writeValueAsString(new OverviewAssembler(client, CLOCK).assemble());
        }

        assertThat(written.replace(routerUrl, "ROUTER")).isEqualTo("""
                {"routerUrl":"ROUTER","routerReachable":true,"fetchedAt":"2026-01-02T03:05:00Z","error":null,\
                "hosts":[{"hostId":"host-1","kind":"PE","controlUrl":"http://127.0.0.1:9101",\
                "dataEndpoint":"tcp://127.0.0.1:9201",\
                "status":"LIVE","lastHeartbeat":"2026-01-02T03:04:05.250Z","tasks":[{"task":"wordcount/source#0",\
                "status":"RUNNING"},{"task":"wordcount/count#0","status":"RUNNING"}]},{"hostId":"host-2",\
                "kind":"PE","controlUrl":"http://127.0.0.1:9102","dataEndpoint":"tcp://127.0.0.1:9202","status":"DEAD",\
                "lastHeartbeat":"2026-01-02T03:03:00Z","tasks":[]}],"topologies":[{"id":"wordcount","status":"RUNNING",\
                "deployedAt":"2026-01-02T03:00:00Z","operators":[{"operator":"source","recordsIn":10,"recordsOut":10,\
                "eventsPerSecond":125.5,"latencyMillis":null,"outputWaitMillis":null},{"operator":"count","recordsIn":10,"recordsOut":4,\
                "eventsPerSecond":40.0,"latencyMillis":2.5,"outputWaitMillis":1.25}],\
                "tasks":[{"task":"wordcount/source#0","host":"host-1","hostStatus":"LIVE","status":"RUNNING",\
                "recordsIn":10,"recordsOut":10,"failure":null},{"task":"wordcount/count#0","host":"host-1",\
                "hostStatus":"LIVE","status":"RUNNING","recordsIn":10,"recordsOut":4,"failure":null}],"error":null},\
                {"id":"fraud","status":"FAILED","deployedAt":"2026-01-02T03:01:00Z","operators":[{"operator":"scorer",\
                "recordsIn":3,"recordsOut":0,"eventsPerSecond":0.0,"latencyMillis":null,"outputWaitMillis":null}],\
                "tasks":[{"task":"fraud/scorer#0","host":"host-2",\
                "hostStatus":"DEAD","status":"FAILED","recordsIn":3,"recordsOut":0,\
                "failure":"java.lang.IllegalStateException: model missing"}],"error":null}]}""");
    }
}

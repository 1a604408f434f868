package io.steadfast.dashboard.overview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.dashboard.CannedRouter;
import io.steadfast.dashboard.DashboardHttp;
import io.steadfast.dashboard.DashboardOverHttp;
import io.steadfast.dashboard.FakeRouter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "steadfast.dashboard.events.interval=200ms")
@Timeout(120)
class OverviewEventsIT extends DashboardOverHttp {

    private static final FakeRouter ROUTER = CannedRouter.start();

    @Autowired
    private OverviewFeed feed;

    @DynamicPropertySource
    static void routerUrl(DynamicPropertyRegistry registry) {
        registry.add("steadfast.dashboard.router-url", () -> ROUTER.url().toString());
    }

    @AfterAll
    static void stopRouter() {
        ROUTER.close();
    }

    @BeforeEach
    void setUp() {
        // Streams of an earlier test are forgotten once a send to them fails; start from none.
        await().atMost(Duration.ofSeconds(30)).until(() -> feed.subscriberCount() == 0);
    }

    @Test
    void streamsOverviewEventsAndForgetsAStreamOnceItsClientHangsUp() throws Exception {
        HttpResponse<Stream<String>> response = openStream();
        try (Stream<String> lines = response.body()) {
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));

            JsonNode overview = nextOverview(lines.iterator());

            assertThat(overview.get("routerReachable").asBoolean()).isTrue();
            assertThat(overview.get("topologies").get(0).get("id").asString()).isEqualTo("wordcount");
            assertThat(feed.subscriberCount()).isEqualTo(1);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> feed.subscriberCount() == 0);
    }

    @Test
    void feedsEveryStreamFromOneThread() throws Exception {
        long feedThreadsBefore = feedThreads();
        HttpResponse<Stream<String>> first = openStream();
        HttpResponse<Stream<String>> second = openStream();
        try (Stream<String> a = first.body(); Stream<String> b = second.body()) {
            assertThat(nextOverview(a.iterator()).get("routerReachable").asBoolean()).isTrue();
            assertThat(nextOverview(b.iterator()).get("routerReachable").asBoolean()).isTrue();

            // Other cached test contexts may run feeds of their own: count the change, not the total.
            assertThat(feedThreadsBefore).isPositive();
            assertThat(feedThreads()).isEqualTo(feedThreadsBefore);
            assertThat(feed.subscriberCount()).isEqualTo(2);
        }
    }

    private static long feedThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(OverviewFeed.THREAD_NAME)).count();
    }

    private HttpResponse<Stream<String>> openStream() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(http.uri("/api/v1/events"))
                .header("Accept", "text/event-stream").build();
        return http.client().send(request, HttpResponse.BodyHandlers.ofLines());
    }

    /** Reads lines up to the data of the next event named "overview". */
    private static JsonNode nextOverview(Iterator<String> lines) {
        boolean inOverview = false;
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty()) {
                inOverview = false;
            } else if (line.startsWith("event:")) {
                inOverview = line.substring("event:".length()).strip().equals("overview");
            } else if (inOverview && line.startsWith("data:")) {
                return DashboardHttp.json(line.substring("data:".length()).strip());
            }
        }
        throw new AssertionError("The stream ended before an overview event");
    }
}

package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.snapshot.InMemoryCheckpointing;
import io.steadfast.runtime.dataplane.DataPlaneMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * The host's data plane counters on {@code /actuator/prometheus}, after the host's start-up warm-up rehearsed local
 * recoveries on its own data plane (its live tasks resent their logged output to the recovered ones).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "steadfast.host.id=under-test")
@ContextConfiguration(initializers = InMemoryCheckpointing.Store.class)
@Import(InMemoryCheckpointing.Reporting.class)
class DataPlaneMetersTest {

    @LocalServerPort
    private int port;
    @Autowired
    private ProcessingNode node;
    @Autowired
    private RecoveryPathWarmUp warmUp;

    private String scrape() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static double value(String scrape, String series) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
        assertThat(matcher.find()).as("series %s on the scrape", series).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    @Test
    void resentSentReceivedAndDroppedFramesAreCountersOverTheDataPlanesCounts() throws Exception {
        await().atMost(Duration.ofSeconds(120)).until(warmUp::done);
        DataPlaneMetrics metrics = node.dataPlaneMetrics();
        assertThat(metrics.framesResent()).as("the rehearsed recoveries made the live tasks resend").isPositive();

        String scrape = scrape();

        assertThat(scrape).contains("# TYPE steadfast_dataplane_frames_resent_total counter")
                .contains("# TYPE steadfast_dataplane_frames_dropped_total counter")
                .contains("# TYPE steadfast_dataplane_sent_bytes_total counter");
        assertThat(value(scrape, "steadfast_dataplane_frames_resent_total")).isEqualTo(metrics.framesResent());
        assertThat(value(scrape, "steadfast_dataplane_frames_sent_total")).isEqualTo(metrics.framesSent())
                .isPositive();
        assertThat(value(scrape, "steadfast_dataplane_frames_received_total")).isPositive();
        assertThat(value(scrape, "steadfast_dataplane_sent_bytes_total")).isPositive();
        assertThat(value(scrape, "steadfast_dataplane_frames_dropped_total{reason=\"corrupt\"}"))
                .isEqualTo(metrics.corruptFramesDropped());
        assertThat(value(scrape, "steadfast_dataplane_frames_dropped_total{reason=\"malformed\"}"))
                .isEqualTo(metrics.malformedFramesDropped());
        assertThat(value(scrape, "steadfast_dataplane_frames_dropped_total{reason=\"duplicate\"}"))
                .isEqualTo(metrics.duplicateFramesDropped());
        assertThat(value(scrape, "steadfast_dataplane_io_errors_total")).isZero();
    }
}

package io.steadfast.cluster.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.dashboard.ConsoleErrors.Expected;
import org.junit.jupiter.api.Test;

class ConsoleErrorsTest {

    private static final String BAD_REQUEST = "http://127.0.0.1:41234/api/v1/topologies - Failed to load resource:"
            + " the server responded with a status of 400 (Bad Request)";

    @Test
    void anExpectedFailedRequestMatchesItsPathAndStatusOnly() {
        assertThat(Expected.failedRequest("/api/v1/topologies", 400).matches(BAD_REQUEST)).isTrue();
        assertThat(Expected.failedRequest("/api/v1/topologies", 502).matches(BAD_REQUEST)).isFalse();
        assertThat(Expected.failedRequest("/api/v1/hosts", 400).matches(BAD_REQUEST)).isFalse();
    }

    @Test
    void aScriptErrorIsNeverAnExpectedFailedRequest() {
        assertThat(Expected.failedRequest("/api/v1/topologies", 400).matches(
                "http://127.0.0.1:41234/js/app.js 12:7 Uncaught TypeError: cannot read /api/v1/topologies")).isFalse();
    }
}

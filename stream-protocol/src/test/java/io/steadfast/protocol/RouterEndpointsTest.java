package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.protocol.router.RouterEndpoints;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A client of replicated routers moves to the named leader, or round the configured ones when one fails. */
class RouterEndpointsTest {

    private static final URI A = URI.create("http://a:8080");
    private static final URI B = URI.create("http://b:8080");
    private static final URI C = URI.create("http://c:8080");

    @Test
    void startsAtTheFirstAndGoesRoundOnFailures() {
        RouterEndpoints endpoints = new RouterEndpoints(List.of(A, B, C));

        assertThat(endpoints.current()).isEqualTo(A);
        assertThat(endpoints.failed(A)).isTrue();
        assertThat(endpoints.current()).isEqualTo(B);
        assertThat(endpoints.failed(B)).isTrue();
        assertThat(endpoints.current()).isEqualTo(C);
        assertThat(endpoints.failed(C)).isTrue();
        assertThat(endpoints.current()).isEqualTo(A);
    }

    @Test
    void followsANamedLeaderAndLeavesItForTheConfiguredOnesWhenItFails() {
        RouterEndpoints endpoints = new RouterEndpoints(List.of(A, B));
        URI leader = URI.create("http://10.0.0.7:8080");

        assertThat(endpoints.follow(A, leader)).isTrue();
        assertThat(endpoints.current()).isEqualTo(leader);
        assertThat(endpoints.failed(leader)).isTrue();
        assertThat(endpoints.current()).isIn(A, B);
    }

    @Test
    void aFailureReportedLateMovesNothing() {
        RouterEndpoints endpoints = new RouterEndpoints(List.of(A, B));
        endpoints.failed(A);

        assertThat(endpoints.failed(A)).as("another thread moved on already").isFalse();
        assertThat(endpoints.current()).isEqualTo(B);
    }

    @Test
    void oneRouterStaysWhereItIs() {
        RouterEndpoints endpoints = new RouterEndpoints(List.of(A));

        assertThat(endpoints.failed(A)).isFalse();
        assertThat(endpoints.current()).isEqualTo(A);
        assertThatThrownBy(() -> new RouterEndpoints(List.of())).hasMessageContaining("No router URL");
    }
}

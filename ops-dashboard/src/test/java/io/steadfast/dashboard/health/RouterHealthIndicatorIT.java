package io.steadfast.dashboard.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.dashboard.CannedRouter;
import io.steadfast.dashboard.FakeRouter;
import io.steadfast.dashboard.router.RouterClient;
import io.steadfast.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import tools.jackson.databind.json.JsonMapper;

@Timeout(60)
class RouterHealthIndicatorIT {

    private static final Duration MAX_AGE = Duration.ofSeconds(5);

    private final FakeRouter router = CannedRouter.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-02T03:04:05Z"));

    @AfterEach
    void stopRouter() {
        router.close();
    }

    private RouterHealthIndicator indicatorFor(URI url) {
        RouterClient client = new RouterClient(url, Duration.ofSeconds(1), Duration.ofSeconds(3),
                JsonMapper.builder().build());
        return new RouterHealthIndicator(client, clock, MAX_AGE);
    }

    @Test
    void isUpWhenTheRouterSaysItIsUp() {
        Health health = indicatorFor(router.url()).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("url", router.url().toString());
    }

    @Test
    void isDownWithTheUrlAndTheErrorWhenTheRouterIsUnreachable() {
        URI gone = router.url();
        router.close();

        Health health = indicatorFor(gone).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("url", gone.toString());
        assertThat((String) health.getDetails().get("error"))
                .contains(gone + "/actuator/health", "steadfast.dashboard.router-url");
    }

    @Test
    void isDownWhenTheRouterReportsItselfDown() {
        router.answer("/actuator/health", 503, CannedRouter.HEALTH_DOWN);

        Health health = indicatorFor(router.url()).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("reports its health as DOWN");
    }

    @Test
    void reusesAnAnswerForMaxAgeThenAsksAgain() {
        RouterHealthIndicator indicator = indicatorFor(router.url());
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        router.answer("/actuator/health", 503, CannedRouter.HEALTH_DOWN);

        clock.advance(MAX_AGE.minusMillis(1));
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

        clock.advance(Duration.ofMillis(1));
        Health health = indicator.health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("lastUpAt");
    }
}

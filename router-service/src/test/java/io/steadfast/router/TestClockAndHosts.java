package io.steadfast.router;

import io.steadfast.router.failure.OwnPauses;
import io.steadfast.testkit.ManualClock;
import java.time.Instant;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the router's clock and host client with ones tests control; the checkpoint records stay the real ones. */
@TestConfiguration(proxyBeanMethods = false)
public class TestClockAndHosts {

    @Bean
    @Primary
    ManualClock testClock() {
        return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** The manual clock stands still while the test runs: a stall of the test's JVM is no pause of the router. */
    @Bean
    @Primary
    OwnPauses noOwnPauses() {
        return OwnPauses.NONE;
    }

    @Bean
    @Primary
    FakeHostClient fakeHostClient() {
        return new FakeHostClient();
    }
}

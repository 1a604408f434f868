package io.steadfast.router;

import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import java.time.Instant;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Replaces the clock and the host client of the router with ones tests control. */
@TestConfiguration(proxyBeanMethods = false)
public class RouterTestBeans {

    @Bean
    @Primary
    MutableClock testClock() {
        return new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Bean
    @Primary
    InMemoryCheckpointRecords inMemoryCheckpointRecords(MutableClock clock) {
        return new InMemoryCheckpointRecords(clock);
    }

    @Bean
    @Primary
    FakeHostClient fakeHostClient() {
        return new FakeHostClient();
    }
}

package io.steadfast.router;

import io.steadfast.router.checkpoint.InMemoryCheckpointRecords;
import io.steadfast.testkit.ManualClock;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/** Replaces the clock, the host client and the checkpoint records of the router with ones tests control. */
@TestConfiguration(proxyBeanMethods = false)
@Import(TestClockAndHosts.class)
public class RouterTestBeans {

    @Bean
    @Primary
    InMemoryCheckpointRecords inMemoryCheckpointRecords(ManualClock clock) {
        return new InMemoryCheckpointRecords(clock);
    }
}

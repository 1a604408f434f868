package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.support.GenericApplicationContext;

/** A host registers with the router only once its warm-up is done (or it has none to do). */
class RegistrationAfterWarmUpTest {

    @Test
    void theGateStaysClosedUntilTheWarmUpIsDoneAndOpensAtOnceWithoutAWebServerToWarm() {
        RecoveryPathWarmUp warmUp = new RecoveryPathWarmUp(null);
        assertThat(warmUp.isOpen()).as("just created: not warmed up yet").isFalse();

        try (GenericApplicationContext context = new GenericApplicationContext()) {
            // no local.server.port: nothing to warm, so nothing to wait for
            warmUp.onApplicationEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0], context,
                    Duration.ZERO));
        }

        assertThat(warmUp.isOpen()).isTrue();
        assertThat(RecoveryPathWarmUp.REGISTRATION_WAITS_AT_MOST).as("a host never waits for ever")
                .isLessThanOrEqualTo(Duration.ofSeconds(30));
    }
}

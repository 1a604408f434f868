package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.support.GenericApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * A host registers with the router only once its warm-up is done (or it has none to do); the warm-up's recovery
 * requests bind like a real one.
 */
class RegistrationAfterWarmUpTest {

    @Test
    void theLargePlanWarmUpRequestBindsAsAWholeRecoveryRequestOfAJobOf32Tasks() {
        InPlaceRecoveryRequest request = JsonMapper.shared().readValue(RecoveryPathWarmUp.largePlanRequest(),
                InPlaceRecoveryRequest.class);

        assertThat(request.plan().topology().value()).isEqualTo(RecoveryPathWarmUp.TOPOLOGY);
        assertThat(request.plan().tasks()).hasSize(32);
        assertThat(request.plan().channels()).hasSize(8 * 16 + 16 * 8);
        assertThat(request.placement().hosts()).hasSize(32);
        assertThat(request.tasks()).containsExactly(request.plan().tasks().get(0).id());
    }

    @Test
    void thePlanlessWarmUpRequestBindsAsTheRouterSendsItStampedAndNamingThePeers() {
        InPlaceRecoveryRequest request = JsonMapper.shared().readValue(RecoveryPathWarmUp.largePlanlessRequest(),
                InPlaceRecoveryRequest.class);

        assertThat(request.plan()).isNull();
        assertThat(request.epoch()).isNotNull();
        assertThat(request.roundOrEmpty().requestedAt()).isNotNull();
        assertThat(request.peers()).hasSize(3);
        assertThat(request.placement().hosts()).hasSize(32);
    }

    @Test
    void theGateStaysClosedUntilTheWarmUpIsDoneAndOpensAtOnceWithoutAWebServerToWarm() {
        RecoveryPathWarmUp warmUp = new RecoveryPathWarmUp(null, null);
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

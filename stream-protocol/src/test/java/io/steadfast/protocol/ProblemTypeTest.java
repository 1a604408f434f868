package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.steadfast.protocol.problem.ProblemType;
import java.net.URI;
import org.junit.jupiter.api.Test;

class ProblemTypeTest {

    @Test
    void namesTheTypeOfAReasonAsAUrnInKebabCase() {
        assertThat(ProblemType.of("PLAN_NOT_HELD")).isEqualTo(URI.create("urn:steadfast:problem:plan-not-held"));
        assertThat(ProblemType.of("NOT_FOUND")).isEqualTo(URI.create("urn:steadfast:problem:not-found"));
    }

    @Test
    void refusesAReasonThatIsNotUpperSnake() {
        assertThatIllegalArgumentException().isThrownBy(() -> ProblemType.of("plan-not-held"))
                .withMessageContaining("UPPER_SNAKE");
    }
}

package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.TaskId;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TaskRestartPolicyTest {

    private static final TaskId TASK = TaskId.parse("t/count#0");
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final TaskRestartPolicy policy = new TaskRestartPolicy(3, Duration.ofMinutes(1), Duration.ofSeconds(1),
            Duration.ofSeconds(3));

    @Test
    void restartsAtOnceThenBacksOffExponentiallyAndGivesUpWhenTheWindowsAttemptsAreSpent() {
        assertThat(policy.decide(TASK, T0)).isEqualTo(new TaskRestartPolicy.RestartNow(1));
        policy.restarted(TASK, T0);

        assertThat(policy.decide(TASK, T0.plusMillis(500))).isEqualTo(new TaskRestartPolicy.WaitUntil(T0.plusSeconds(1)));
        assertThat(policy.decide(TASK, T0.plusSeconds(1))).isEqualTo(new TaskRestartPolicy.RestartNow(2));
        policy.restarted(TASK, T0.plusSeconds(1));

        assertThat(policy.decide(TASK, T0.plusSeconds(2))).as("twice the wait after the second restart")
                .isEqualTo(new TaskRestartPolicy.WaitUntil(T0.plusSeconds(3)));
        assertThat(policy.decide(TASK, T0.plusSeconds(3))).isEqualTo(new TaskRestartPolicy.RestartNow(3));
        policy.restarted(TASK, T0.plusSeconds(3));

        assertThat(policy.decide(TASK, T0.plusSeconds(10))).isEqualTo(new TaskRestartPolicy.GiveUp(3));
    }

    @Test
    void restartsOlderThanTheWindowNoLongerCount() {
        policy.restarted(TASK, T0);
        policy.restarted(TASK, T0.plusSeconds(1));
        policy.restarted(TASK, T0.plusSeconds(3));

        assertThat(policy.decide(TASK, T0.plusMillis(60_500))).as("the first fell out of the window")
                .isEqualTo(new TaskRestartPolicy.RestartNow(3));
        assertThat(policy.decide(TaskId.parse("t/count#1"), T0)).as("counted per task")
                .isEqualTo(new TaskRestartPolicy.RestartNow(1));
    }

    @Test
    void theWaitIsCappedAtTheMaximumBackoff() {
        assertThat(policy.backoff(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.backoff(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.backoff(10)).isEqualTo(Duration.ofSeconds(3));
    }
}

package io.steadfast.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.TaskId;
import org.junit.jupiter.api.Test;

class MM1Test {

    private static final TaskId TASK = TaskId.parse("t/map#0");
    private static final double EXACT = 1e-12;

    private final MM1 model = new MM1();

    @Test
    void waitsRhoTimesServiceOverOneMinusRho() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001));

        // ρ = 800/s × 1 ms = 0.8; W_q = ρ·E[S]/(1−ρ) = 0.8 × 0.001 / 0.2 = 0.004 s = ρ/(μ−λ) = 0.8/(1000−800)
        assertThat(delay.utilisation()).isCloseTo(0.8, within(EXACT));
        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.004, within(EXACT));
        assertThat(delay.serviceSeconds()).isEqualTo(0.001);
        // W = W_q + E[S] = 0.004 + 0.001
        assertThat(delay.sojournSeconds().getAsDouble()).isCloseTo(0.005, within(EXACT));
        assertThat(delay.stability()).isEqualTo(Stability.STABLE);
    }

    @Test
    void ignoresTheMeasuredVariability() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001).withScv(4, 0));

        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.004, within(EXACT));
    }

    @Test
    void anIdleTaskWaitsNothingAndTakesItsServiceTime() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 0, 0.001));

        assertThat(delay.utilisation()).isZero();
        assertThat(delay.waitSeconds().getAsDouble()).isZero();
        assertThat(delay.sojournSeconds().getAsDouble()).isEqualTo(0.001);
        assertThat(delay.stability()).isEqualTo(Stability.STABLE);
    }

    @Test
    void flagsATaskAtNinetyFivePercentAsNearSaturationButStillGivesItsWait() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 950, 0.001));

        // ρ = 0.95; W_q = 0.95 × 0.001 / 0.05 = 0.019 s: five times the wait at ρ = 0.8 for 19 % more load
        assertThat(delay.stability()).isEqualTo(Stability.NEAR_SATURATION);
        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.019, within(1e-9));
    }

    @Test
    void givesNoWaitForATaskThatServesExactlyAsFastAsRecordsArrive() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 1000, 0.001));

        // ρ = 1000 × 0.001 = 1: no steady state
        assertThat(delay.stability()).isEqualTo(Stability.UNSTABLE);
        assertThat(delay.waitSeconds()).isEmpty();
        assertThat(delay.sojournSeconds()).isEmpty();
        assertThat(delay.isUnstable()).isTrue();
    }

    @Test
    void givesNoWaitForAnOverloadedTask() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 1200, 0.001));

        // ρ = 1.2: the queue grows by 200 records a second
        assertThat(delay.utilisation()).isCloseTo(1.2, within(EXACT));
        assertThat(delay.stability()).isEqualTo(Stability.UNSTABLE);
        assertThat(delay.waitSeconds()).isEmpty();
    }

    @Test
    void takesAnotherNearSaturationBound() {
        assertThat(new MM1(0.8).delay(TaskLoad.of(TASK, 800, 0.001)).stability())
                .isEqualTo(Stability.NEAR_SATURATION);
        assertThat(new MM1(0.8).delay(TaskLoad.of(TASK, 799, 0.001)).stability()).isEqualTo(Stability.STABLE);
    }

    @Test
    void rejectsANearSaturationBoundOutsideZeroToOne() {
        assertThatThrownBy(() -> new MM1(1.5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nearSaturation").hasMessageContaining("1.5");
        assertThatThrownBy(() -> new MM1(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

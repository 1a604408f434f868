package io.steadfast.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.steadfast.runtime.plan.TaskId;
import org.junit.jupiter.api.Test;

class KingmanGG1Test {

    private static final TaskId TASK = TaskId.parse("t/count#1");
    private static final double EXACT = 1e-12;

    private final KingmanGG1 model = new KingmanGG1();

    @Test
    void halvesTheMM1WaitForAConstantServiceTimeAndPoissonArrivals() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001).withScv(1, 0));

        // W_q = (ρ/(1−ρ)) · ((c_a² + c_s²)/2) · E[S] = (0.8/0.2) × (1 + 0)/2 × 0.001 = 0.002 s (M/D/1)
        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.002, within(EXACT));
        assertThat(delay.sojournSeconds().getAsDouble()).isCloseTo(0.003, within(EXACT));
    }

    @Test
    void isTheMM1WaitWhenBothVariationsAreOne() {
        TaskLoad load = TaskLoad.of(TASK, 800, 0.001);

        // (1 + 1)/2 = 1: W_q = 4 × 0.001 = 0.004 s, as M/M/1
        assertThat(model.delay(load).waitSeconds().getAsDouble())
                .isCloseTo(new MM1().delay(load).waitSeconds().getAsDouble(), within(EXACT))
                .isCloseTo(0.004, within(EXACT));
    }

    @Test
    void queuesFramesAndThenTheRecordsBeforeOneInItsFrame() {
        // 800 records/s in frames of 4: 200 frames/s, each served in 4 ms, ρ = 0.8 still
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001).withRecordsPerFrame(4));

        // W_q = 4 × (1 + 1)/2 × 4 × 0.001 + (4 − 1)/2 × 0.001 = 0.016 + 0.0015 = 0.0175 s, far above records one
        // by one (0.004 s)
        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.0175, within(EXACT));
        assertThat(delay.sojournSeconds().getAsDouble()).isCloseTo(0.0185, within(EXACT));
        assertThat(model.delay(TaskLoad.of(TASK, 800, 0.001).withRecordsPerFrame(1)).waitSeconds().getAsDouble())
                .as("frames of one record are records one by one").isCloseTo(0.004, within(EXACT));
    }

    @Test
    void evenlySpacedFramesStillWaitForTheRecordsBeforeThemInTheFrame() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001).withScv(0, 0).withRecordsPerFrame(5));

        // no queue of frames (D/D/1), then (5 − 1)/2 × 1 ms within the frame
        assertThat(delay.waitSeconds().getAsDouble()).isCloseTo(0.002, within(EXACT));
    }

    @Test
    void derivesRecordsPerFrameFromTheMeasuredRates() {
        assertThat(TaskLoad.recordsPerFrame(12_000, 40)).isEqualTo(300);
        assertThat(TaskLoad.recordsPerFrame(5, 40)).as("watermark-only frames: still at least 1").isEqualTo(1);
        assertThat(TaskLoad.recordsPerFrame(5, 0)).as("no frames counted").isEqualTo(1);
    }

    @Test
    void waitsNothingForEvenlySpacedArrivalsAndConstantService() {
        TaskDelay delay = model.delay(TaskLoad.of(TASK, 800, 0.001).withScv(0, 0));

        // D/D/1 below saturation: a record never finds another in service
        assertThat(delay.waitSeconds().getAsDouble()).isZero();
    }

    @Test
    void flagsNearSaturationAndSaturationAsMM1Does() {
        assertThat(model.delay(TaskLoad.of(TASK, 950, 0.001)).stability()).isEqualTo(Stability.NEAR_SATURATION);
        assertThat(model.delay(TaskLoad.of(TASK, 1000, 0.001).withScv(1, 0)).waitSeconds()).isEmpty();
        assertThat(model.delay(TaskLoad.of(TASK, 1200, 0.001)).stability()).isEqualTo(Stability.UNSTABLE);
    }

    @Test
    void anIdleTaskWaitsNothing() {
        assertThat(model.delay(TaskLoad.of(TASK, 0, 0.002).withScv(5, 5)).sojournSeconds().getAsDouble())
                .isEqualTo(0.002);
    }
}

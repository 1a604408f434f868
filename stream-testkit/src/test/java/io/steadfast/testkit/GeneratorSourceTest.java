package io.steadfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.source.Source;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.operator.builtin.GeneratorConfig;
import io.steadfast.runtime.operator.builtin.GeneratorSource;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.SourceDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GeneratorSourceTest {

    private static final OperatorType<?> GENERATOR = BuiltinOperatorsTest.REGISTRY.require(BuiltinOperators.GENERATOR);
    private static final long START = 1_000;
    private static final GeneratorConfig BOUNDED = new GeneratorConfig(100L, 7, 0L, START, 1L, "k");
    private static final GeneratorConfig BOUNDED_1000 = new GeneratorConfig(1_000L, 7, 0L, START, 1L, "k");

    private static SourceDriver driver(GeneratorConfig config, int subtask, int parallelism, ManualClock clock) {
        return new SourceDriver(GENERATOR, config, new OperatorInfo("t", "gen", subtask, parallelism), clock);
    }

    /** Polls in small batches until the source is exhausted. */
    private static List<Event<Object>> drain(SourceDriver driver) {
        List<Event<Object>> events = new ArrayList<>();
        while (driver.poll(events::add, 7) != Source.EXHAUSTED) {
            // keep polling
        }
        return events;
    }

    private static List<Event<Object>> pollAtMost(SourceDriver driver, int events) {
        List<Event<Object>> polled = new ArrayList<>();
        while (polled.size() < events) {
            int n = driver.poll(polled::add, Math.min(5, events - polled.size()));
            assertThat(n).isNotEqualTo(Source.EXHAUSTED);
        }
        return polled;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void continuesAfterRestoreWithExactlyTheEventsAnUninterruptedGeneratorEmits(int parallelism) {
        for (int subtask = 0; subtask < parallelism; subtask++) {
            List<Event<Object>> expected = drain(driver(BOUNDED, subtask, parallelism, ManualClock.atEpoch()));
            SourceDriver first = driver(BOUNDED, subtask, parallelism, ManualClock.atEpoch());
            List<Event<Object>> actual = new ArrayList<>(pollAtMost(first, 13));
            OperatorSnapshot snapshot = OperatorSnapshot.fromBytes(
                    OperatorSnapshot.take(BuiltinOperators.GENERATOR, first).toBytes());
            long watermarkAtSnapshot = first.watermark();
            pollAtMost(first, 4); // lost with the failure

            SourceDriver restored = driver(BOUNDED, subtask, parallelism, ManualClock.atEpoch());
            snapshot.restoreInto(BuiltinOperators.GENERATOR, restored);
            long restoredWatermark = restored.watermark();
            actual.addAll(drain(restored));

            assertThat(restored.position()).isEqualTo(GeneratorSource.eventsOfSubtask(100, subtask, parallelism));
            assertThat(restoredWatermark).isEqualTo(watermarkAtSnapshot);
            assertThat(restored.isExhausted()).isTrue();
            assertThat(restored.watermark()).isEqualTo(Long.MAX_VALUE);
            assertThat(actual).as("subtask %d of %d", subtask, parallelism).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8})
    void emitsEveryIndexExactlyOnceOverAllSubtasks(int parallelism) {
        List<Long> indices = new ArrayList<>();
        for (int subtask = 0; subtask < parallelism; subtask++) {
            List<Event<Object>> events = drain(driver(BOUNDED, subtask, parallelism, ManualClock.atEpoch()));
            assertThat(events).hasSize((int) GeneratorSource.eventsOfSubtask(100, subtask, parallelism));
            for (Event<Object> event : events) {
                long index = event.eventTime() - START;
                assertThat(event.key()).isEqualTo("k" + index % 7);
                assertThat(event.value()).isEqualTo(index % 10 + 1);
                indices.add(index);
            }
        }

        assertThat(indices).containsExactlyInAnyOrderElementsOf(LongStream.range(0, 100).boxed().toList());
    }

    @Test
    void emitsInEventTimeOrderAndTracksTheWatermark() {
        SourceDriver driver = driver(BOUNDED, 1, 3, ManualClock.atEpoch());

        List<Event<Object>> events = pollAtMost(driver, 3);

        assertThat(events).extracting(Event::eventTime).containsExactly(START + 1, START + 4, START + 7);
        assertThat(driver.watermark()).as("one less than the latest event time: an equal time may follow")
                .isEqualTo(START + 7 - 1);
        assertThat(driver.position()).isEqualTo(3);
    }

    @Test
    void pacesByTheClockWithoutChangingWhatIsEmitted() {
        ManualClock clock = ManualClock.atEpoch();
        GeneratorConfig paced = new GeneratorConfig(1_000L, 7, 100L, START, 1L, "k");
        SourceDriver driver = driver(paced, 0, 1, clock);
        List<Event<Object>> events = new ArrayList<>();

        int atStart = driver.poll(events::add, 1_000);
        clock.advance(Duration.ofSeconds(1));
        int afterOneSecond = driver.poll(events::add, 1_000);
        int again = driver.poll(events::add, 1_000);
        clock.advance(Duration.ofMillis(500));
        int afterAnotherHalf = driver.poll(events::add, 1_000);
        clock.advance(Duration.ofSeconds(100));
        int capped = driver.poll(events::add, 30);

        assertThat(List.of(atStart, afterOneSecond, again, afterAnotherHalf, capped))
                .containsExactly(0, 100, 0, 50, 30);
        assertThat(events).isEqualTo(drain(driver(BOUNDED_1000, 0, 1, ManualClock.atEpoch())).subList(0, 180));
    }

    @Test
    void aSourcePacedSinceAFixedTimeEmitsWhatFellDueWhileItWasDownAtOnceAfterARestore() {
        ManualClock clock = ManualClock.atEpoch();
        GeneratorConfig paced = new GeneratorConfig(10_000L, 7, 100L, START, 1L, "k", clock.millis());
        SourceDriver first = driver(paced, 0, 1, clock);
        clock.advance(Duration.ofSeconds(1));
        assertThat(first.poll(event -> { }, 1_000)).isEqualTo(100);
        OperatorSnapshot snapshot = OperatorSnapshot.fromBytes(
                OperatorSnapshot.take(BuiltinOperators.GENERATOR, first).toBytes());

        clock.advance(Duration.ofSeconds(2)); // down for two seconds, then restored
        SourceDriver restored = driver(paced, 0, 1, clock);
        snapshot.restoreInto(BuiltinOperators.GENERATOR, restored);

        assertThat(restored.poll(event -> { }, 1_000)).as("the 200 events due meanwhile, at once").isEqualTo(200);
        assertThat(restored.poll(event -> { }, 1_000)).isZero();
    }

    @Test
    void splitsTheRateOverSubtasks() {
        ManualClock clock = ManualClock.atEpoch();
        GeneratorConfig paced = new GeneratorConfig(0L, 7, 300L, START, 1L, "k");
        SourceDriver driver = driver(paced, 2, 3, clock);

        driver.poll(event -> { }, 1_000);
        clock.advance(Duration.ofSeconds(2));
        int emitted = driver.poll(event -> { }, 1_000);

        assertThat(emitted).isEqualTo(200);
    }

    @Test
    void isUnboundedWithACountOfZero() {
        SourceDriver driver = driver(new GeneratorConfig(0L, 3, 0L, START, 1L, "k"), 0, 1, ManualClock.atEpoch());

        int emitted = driver.poll(event -> { }, 10_000);

        assertThat(emitted).isEqualTo(10_000);
        assertThat(driver.isExhausted()).isFalse();
    }

    @Test
    void countsTheEventsOfEachSubtask() {
        assertThat(GeneratorSource.eventsOfSubtask(10, 0, 3)).isEqualTo(4);
        assertThat(GeneratorSource.eventsOfSubtask(10, 1, 3)).isEqualTo(3);
        assertThat(GeneratorSource.eventsOfSubtask(10, 2, 3)).isEqualTo(3);
        assertThat(GeneratorSource.eventsOfSubtask(2, 2, 3)).isZero();
    }
}

package io.steadfast.examples.scoring;

import static io.steadfast.examples.scoring.ScoringDrivers.generatorEvents;
import static io.steadfast.examples.scoring.ScoringDrivers.scores;
import static io.steadfast.examples.scoring.ScoringDrivers.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.testkit.PeTestDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Each injectable fault does what its config says: wrong values for a deterministic share of the inputs, one throw,
 * one stall; a task restarted from its snapshot in the same process neither throws nor stalls again.
 */
class InjectedFaultsTest {

    /** Distinct (key, value) inputs: the generator gives each of its keys one value, so the keys must be many. */
    private static final List<Event<Object>> INPUTS = generatorEvents(5_000, 5_000);

    @Test
    void givesWrongScoresToTheConfiguredShareOfInputs() {
        List<Long> right = run(ScoringVersions.FORMULA, "{}", "wrong-reference");
        List<Long> faulty = run(ScoringVersions.FORMULA, "{\"wrongFraction\": 0.1}", "wrong");

        assertThat(wrongInputs(right, faulty).size() / (double) INPUTS.size()).isBetween(0.085, 0.115);
    }

    @Test
    void isWrongOnTheSameInputsInEveryRunAndAfterARestore() {
        String config = "{\"wrongFraction\": 0.25}";
        List<Long> first = run(ScoringVersions.TABLE, config, "replay");
        OperatorSnapshot snapshot;
        try (PeTestDriver<Long> driver = version(ScoringVersions.TABLE, config, "replay", 1).build()) {
            scores(driver, INPUTS.subList(0, 1_000));
            snapshot = driver.snapshot();
        }
        List<Long> replayed;
        try (PeTestDriver<Long> restored = version(ScoringVersions.TABLE, config, "replay", 1).restoreFrom(snapshot)
                .build()) {
            replayed = scores(restored, INPUTS.subList(1_000, INPUTS.size()));
        }

        assertThat(run(ScoringVersions.TABLE, config, "replay-again")).isEqualTo(first);
        assertThat(replayed).isEqualTo(first.subList(1_000, first.size()));
    }

    @Test
    void twoVersionsWithTheSameShareAreRarelyWrongOnTheSameInput() {
        List<Long> right = run(ScoringVersions.FORMULA, "{}", "overlap-reference");
        List<Integer> table = wrongInputs(right, run(ScoringVersions.TABLE, "{\"wrongFraction\": 0.1}", "overlap"));
        List<Integer> iterative = wrongInputs(right, run(ScoringVersions.ITERATIVE, "{\"wrongFraction\": 0.1}",
                "overlap"));

        List<Integer> both = new ArrayList<>(table);
        both.retainAll(iterative);
        assertThat(both.size()).as("about 1%% of inputs by chance, not the 10%% of a shared choice")
                .isLessThan(INPUTS.size() / 40);
    }

    @Test
    void throwsOnceAtTheConfiguredInputAndNotAgainWhenRestartedFromASnapshot() {
        String config = "{\"throwAtInput\": 100}";
        OperatorSnapshot snapshot;
        List<Long> beforeFailure;
        try (PeTestDriver<Long> driver = version(ScoringVersions.ITERATIVE, config, "throws", 0).build()) {
            beforeFailure = scores(driver, INPUTS.subList(0, 50));
            snapshot = driver.snapshot();
            scores(driver, INPUTS.subList(50, 99));

            assertThatThrownBy(() -> driver.send(INPUTS.get(99)))
                    .isInstanceOf(InjectedFaultException.class)
                    .hasMessageContaining("score-iterative in operator 'throws' subtask 0")
                    .hasMessageContaining("at its input 100 (throwAtInput)");
        }
        List<Long> afterRestart;
        try (PeTestDriver<Long> restarted = version(ScoringVersions.ITERATIVE, config, "throws", 0)
                .restoreFrom(snapshot).build()) {
            afterRestart = scores(restarted, INPUTS.subList(50, 400));
        }

        List<Long> all = new ArrayList<>(beforeFailure);
        all.addAll(afterRestart);
        assertThat(all).isEqualTo(run(ScoringVersions.FORMULA, "{}", "throws-reference").subList(0, 400));
    }

    @Test
    void countsInputsPerTaskSoThatEachSubtaskThrowsOnce() {
        String config = "{\"throwAtInput\": 3}";
        for (int subtask = 0; subtask < 2; subtask++) {
            try (PeTestDriver<Long> driver = version(ScoringVersions.FORMULA, config, "per-task", subtask).build()) {
                scores(driver, INPUTS.subList(0, 2));
                assertThatThrownBy(() -> driver.send(INPUTS.get(2))).isInstanceOf(InjectedFaultException.class);
                assertThat(scores(driver, INPUTS.subList(2, 10))).hasSize(2 + 8);
            }
        }
    }

    @Test
    void stallsOnceAtTheConfiguredInput() {
        String config = "{\"stallAtInput\": 20, \"stallMs\": 400}";
        List<Duration> firstRun = sendTimes(version(ScoringVersions.TABLE, config, "stalls", 0).build());
        List<Duration> restarted = sendTimes(version(ScoringVersions.TABLE, config, "stalls", 0).build());

        assertThat(firstRun.get(19)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(slowest(firstRun, 19)).as("no other input of the first run stalls")
                .isLessThan(Duration.ofMillis(400));
        assertThat(slowest(restarted, -1)).as("a restarted task does not stall again")
                .isLessThan(Duration.ofMillis(400));
    }

    private static List<Long> run(String type, String config, String operatorId) {
        try (PeTestDriver<Long> driver = version(type, config, operatorId, 0).build()) {
            return scores(driver, INPUTS);
        }
    }

    /** The positions at which {@code faulty} differs from {@code right}. */
    private static List<Integer> wrongInputs(List<Long> right, List<Long> faulty) {
        assertThat(faulty).hasSameSizeAs(right);
        return IntStream.range(0, right.size()).filter(i -> !right.get(i).equals(faulty.get(i))).boxed().toList();
    }

    /** How long each of the first 40 sends took; the driver is closed after. */
    private static List<Duration> sendTimes(PeTestDriver<Long> driver) {
        try (driver) {
            List<Duration> times = new ArrayList<>();
            for (Event<Object> input : INPUTS.subList(0, 40)) {
                long start = System.nanoTime();
                driver.send(input);
                times.add(Duration.ofNanos(System.nanoTime() - start));
            }
            assertThat(driver.outputs()).hasSize(40);
            return times;
        }
    }

    private static Duration slowest(List<Duration> times, int except) {
        return IntStream.range(0, times.size()).filter(i -> i != except).mapToObj(times::get)
                .max(Duration::compareTo).orElseThrow();
    }
}

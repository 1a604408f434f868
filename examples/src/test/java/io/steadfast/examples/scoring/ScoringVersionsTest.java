package io.steadfast.examples.scoring;

import static io.steadfast.examples.scoring.ScoringDrivers.generatorEvents;
import static io.steadfast.examples.scoring.ScoringDrivers.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.Event;
import io.steadfast.testkit.PeTestDriver;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The three scoring versions compute the same score, differently, one event out per event in. */
class ScoringVersionsTest {

    private static final List<ScoreFunction> FUNCTIONS = List.of(new FormulaScore(), new TableScore(),
            new IterativeScore());

    @Test
    void theThreeVersionsAgreeOnEveryGeneratorEventWithoutFaults() {
        List<Event<Object>> events = generatorEvents(5_000, 997);
        List<List<Event<Long>>> outputs = ScoringDrivers.VERSIONS.stream().map(type -> {
            try (PeTestDriver<Long> driver = version(type, "{}", "agree", 0).build()) {
                events.forEach(driver::send);
                return driver.outputs();
            }
        }).toList();

        assertThat(outputs.get(0)).hasSize(events.size());
        assertThat(outputs.get(1)).isEqualTo(outputs.get(0));
        assertThat(outputs.get(2)).isEqualTo(outputs.get(0));
        assertThat(outputs.get(0).stream().map(Event::value).distinct().count())
                .as("scores that vary, or agreement would prove little").isGreaterThan(300);
    }

    @Test
    void emitsOneScoreWithTheInputsKeyAndEventTime() {
        try (PeTestDriver<Long> driver = version(ScoringVersions.TABLE, "{}", "shape", 0).build()) {
            driver.send("key-0", 1L, 1_700_000_000_000L).send("b", 7, 5L);

            assertThat(driver.outputs()).extracting(Event::key).containsExactly("key-0", "b");
            assertThat(driver.outputs()).extracting(Event::eventTime).containsExactly(1_700_000_000_000L, 5L);
        }
    }

    @Test
    void scoresByTheDefinitionWorkedOutByHand() {
        // weight("key-0") = 107 + 101 + 121 + 45 + 48 = 422; bucket = 422 + 37 * 1 = 459; score = 459 * 460 / 2
        // weight("a") = 97; bucket = (97 - 37 * 3) mod 1024 = -14 mod 1024 = 1010; score = 1010 * 1011 / 2
        for (ScoreFunction function : FUNCTIONS) {
            assertThat(function.score("key-0", 1)).as(function.getClass().getSimpleName()).isEqualTo(105_570L);
            assertThat(function.score("a", -3)).as(function.getClass().getSimpleName()).isEqualTo(510_555L);
            assertThat(function.score("", 0)).isZero();
        }
    }

    @Test
    void theScoreFunctionsAgreeOnExtremeAndRandomInputs() {
        Random random = new Random(24);
        List<String> keys = List.of("", "key-1", "\uffff\uffff", "é-ü-ß", "a".repeat(10_000));
        List<Long> values = List.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 37 + 1);
        for (String key : keys) {
            for (long value : values) {
                assertAgree(key, value);
            }
        }
        for (int i = 0; i < 5_000; i++) {
            assertAgree("k" + random.nextInt(), random.nextLong());
        }
    }

    @Test
    void rejectsAValueThatIsNotAnIntegerNamingTheKeyAndWhatToDo() {
        try (PeTestDriver<Long> driver = version(ScoringVersions.FORMULA, "{}", "types", 0).build()) {
            assertThatThrownBy(() -> driver.send("k", 1.5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("score-formula scores integral values")
                    .hasMessageContaining("key 'k' got java.lang.Double 1.5")
                    .hasMessageContaining("map operator");
        }
    }

    private static void assertAgree(String key, long value) {
        long expected = FUNCTIONS.get(0).score(key, value);
        assertThat(expected).isBetween(0L, 523_776L);
        for (ScoreFunction function : FUNCTIONS) {
            assertThat(function.score(key, value)).as("%s on (%s, %s)", function.getClass().getSimpleName(),
                    key.length() > 20 ? key.substring(0, 20) + "..." : key, value).isEqualTo(expected);
        }
    }
}

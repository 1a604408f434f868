package io.steadfast.runtime.voting;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The vote PE driven directly, its processing-time clock moved by hand: what it emits, when, and how it counts each
 * version, including across a snapshot taken with votes open.
 */
class VotePeTest {

    private static final OperatorRegistry REGISTRY = OperatorRegistry.of(List.of());
    private static final long ORIGIN = VersionBallot.origin(0, 0, 0);
    private static final long OTHER_ORIGIN = VersionBallot.origin(1, 0, 0);
    private static final long DEADLINE_MS = 1_000;

    private final List<Event<Object>> out = new ArrayList<>();
    private KeyedProcessorDriver driver;

    @BeforeEach
    void start() {
        driver = newDriver();
        driver.advanceProcessingTime(10_000, out::add);
    }

    private static KeyedProcessorDriver newDriver() {
        Object config = REGISTRY.bindConfig("vote", JsonMapper.builder().build()
                .readTree("{\"versions\": 3, \"deadlineMs\": " + DEADLINE_MS + "}"));
        return new KeyedProcessorDriver(REGISTRY.require("vote"), config, new OperatorInfo("t", "score", 0, 1),
                REGISTRY.codecs());
    }

    private void ballot(KeyedProcessorDriver target, String key, long origin, long seq, int version, Object... values) {
        target.process(Event.of(key, new VersionBallot(origin, seq, version, List.of(values)).toWire(), 100 + seq),
                out::add);
    }

    private void ballot(String key, long seq, int version, Object... values) {
        ballot(driver, key, ORIGIN, seq, version, values);
    }

    private List<Object> emitted() {
        return out.stream().map(Event::value).toList();
    }

    private List<List<Long>> counts(KeyedProcessorDriver target) {
        return VersionRecord.listOf(target.queryTaskState(VersionRecord.TASK_STATE).orElseThrow()).stream()
                .map(record -> List.of(record.agreed(), record.outvoted(), record.late())).toList();
    }

    @Test
    void twoAgreeingBallotsDecideAtOnceAndTheThirdIsCountedNotEmitted() {
        ballot("k", 1, 0, 7L);
        assertThat(out).isEmpty();
        ballot("k", 1, 2, 7L);
        assertThat(emitted()).containsExactly(7L);
        assertThat(out.get(0).eventTime()).as("the input's event time").isEqualTo(101);

        ballot("k", 1, 1, 8L);
        assertThat(emitted()).as("nothing twice").containsExactly(7L);
        assertThat(counts(driver)).containsExactly(List.of(1L, 0L, 0L), List.of(0L, 1L, 0L), List.of(1L, 0L, 0L));
        assertThat(driver.query("votes", "k").map(state -> KeyVotes.of(state, 3).voteCount()))
                .as("a vote with every ballot in is forgotten").contains(0);
    }

    @Test
    void aVoteMissingAVersionIsDecidedAtItsDeadlineAndTheStragglerIsLate() {
        ballot("k", 1, 0, 5L);
        ballot("k", 1, 1, 6L);
        assertThat(out).as("one against one: wait for the third").isEmpty();

        driver.advanceProcessingTime(10_000 + DEADLINE_MS - 1, out::add);
        assertThat(out).isEmpty();
        driver.advanceProcessingTime(10_000 + DEADLINE_MS, out::add);
        assertThat(out).as("no majority at the deadline: dropped and counted").isEmpty();

        driver.advanceProcessingTime(10_000 + DEADLINE_MS + 1, out::add);
        ballot("k", 1, 2, 5L);
        assertThat(out).isEmpty();
        assertThat(counts(driver).get(2)).as("the third version, after the deadline").containsExactly(0L, 0L, 1L);
    }

    @Test
    void votesOfOneKeyAndOriginLeaveInInputOrderAndOtherOriginsDoNotWait() {
        ballot("k", 1, 0, 1L);
        ballot("k", 2, 0, 2L);
        ballot("k", 2, 1, 2L);
        assertThat(out).as("input 2 is settled, input 1 is not: it waits").isEmpty();
        ballot(driver, "k", OTHER_ORIGIN, 9, 0, 9L);
        ballot(driver, "k", OTHER_ORIGIN, 9, 1, 9L);
        assertThat(emitted()).as("another origin goes on").containsExactly(9L);

        ballot("k", 1, 1, 1L);
        assertThat(emitted()).containsExactly(9L, 1L, 2L);
    }

    @Test
    void aBallotOfAVoteLongForgottenIsLateAndEmitsNothing() {
        ballot("k", 1, 0, 3L);
        ballot("k", 1, 1, 3L);
        driver.advanceProcessingTime(10_000 + 11 * DEADLINE_MS, out::add);
        ballot("k", 2, 0, 4L); // any ballot of the key forgets its expired votes
        ballot("k", 1, 2, 3L);

        assertThat(emitted()).containsExactly(3L);
        assertThat(counts(driver).get(2)).containsExactly(0L, 0L, 1L);
    }

    @Test
    void aSnapshotWithVotesOpenDecidesAfterRestoreAsWithoutIt() {
        KeyedProcessorDriver uninterrupted = newDriver();
        uninterrupted.advanceProcessingTime(10_000, out::add);
        List<Event<Object>> expected = new ArrayList<>();
        feedFirstHalf(uninterrupted, expected);
        feedSecondHalf(uninterrupted, expected);

        List<Event<Object>> actual = new ArrayList<>();
        feedFirstHalf(driver, actual);
        OperatorSnapshot snapshot = OperatorSnapshot.take("vote", driver);
        KeyedProcessorDriver restored = newDriver();
        OperatorSnapshot.fromBytes(snapshot.toBytes()).restoreInto("vote", restored);
        feedSecondHalf(restored, actual);

        assertThat(actual).isEqualTo(expected).hasSize(20);
        assertThat(counts(restored)).isEqualTo(counts(uninterrupted));
    }

    /** Ten inputs over two keys: versions 0 and 1 agree on the first five; only version 0 votes on the rest. */
    private void feedFirstHalf(KeyedProcessorDriver target, List<Event<Object>> sink) {
        for (long seq = 1; seq <= 10; seq++) {
            target.process(ballotEvent("k" + seq % 2, seq, 0), sink::add);
            if (seq <= 5) {
                target.process(ballotEvent("k" + seq % 2, seq, 1), sink::add);
            }
        }
    }

    /** Version 1 on the rest, version 2 on all, then ten more inputs decided by the deadline with two ballots. */
    private void feedSecondHalf(KeyedProcessorDriver target, List<Event<Object>> sink) {
        for (long seq = 6; seq <= 10; seq++) {
            target.process(ballotEvent("k" + seq % 2, seq, 1), sink::add);
        }
        for (long seq = 1; seq <= 10; seq++) {
            target.process(ballotEvent("k" + seq % 2, seq, 2), sink::add);
        }
        for (long seq = 11; seq <= 20; seq++) {
            target.process(ballotEvent("k" + seq % 2, seq, 0), sink::add);
            target.process(ballotEvent("k" + seq % 2, seq, 2), sink::add);
        }
        target.advanceProcessingTime(10_000 + 2 * DEADLINE_MS, sink::add);
    }

    private static Event<Object> ballotEvent(String key, long seq, int version) {
        return Event.of(key, new VersionBallot(ORIGIN, seq, version, List.of(seq * 10)).toWire(), 100 + seq);
    }
}

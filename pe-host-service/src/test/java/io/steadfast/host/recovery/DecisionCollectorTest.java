package io.steadfast.host.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.recovery.HeldDecisions;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A recovering host collects its lost tasks' decisions from the live hosts with one request per peer for all the
 * tasks, keeps the longest run from each task's offset, and asks again from the offset where a peer's earliest run
 * starts later; runs fetched ahead are taken from each peer that still holds the same once the failure is confirmed,
 * and only the others are asked again; over real HTTP, against stand-in peers that hold given runs.
 */
class DecisionCollectorTest {

    private final StandInPeers peers = new StandInPeers();
    private final List<String> requests = peers.requests;

    @AfterEach
    void stop() {
        peers.close();
    }

    private URI peer(Map<TaskId, HeldDecisions> runs) throws IOException {
        return peers.peer(runs);
    }

    private URI peer(Map<TaskId, HeldDecisions> earliest, Map<TaskId, HeldDecisions> fromOffset)
            throws IOException {
        return peers.peer(earliest, fromOffset);
    }

    private static byte[] bytes(int length, int seed) {
        return StandInPeers.bytes(length, seed);
    }

    @Test
    void asksEachPeerOnceForAllTasksAndKeepsTheLongestRunFromEachOffset() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        TaskId b = TaskId.parse("dc/join#1");
        TaskId c = TaskId.parse("dc/join#2");
        URI shorter = peer(Map.of(a, new HeldDecisions(0, bytes(10, 0)), b, new HeldDecisions(5, bytes(20, 5))));
        URI longer = peer(Map.of(a, new HeldDecisions(0, bytes(30, 0))));

        Map<TaskId, byte[]> collected = new DecisionCollector(Duration.ofSeconds(2))
                .prefetch(List.of(shorter, longer), List.of(a, b, c)).from(Map.of(a, 4L, b, 8L, c, 0L));

        assertThat(collected.get(a)).isEqualTo(Arrays.copyOfRange(bytes(30, 0), 4, 30));
        assertThat(collected.get(b)).isEqualTo(Arrays.copyOfRange(bytes(20, 5), 3, 20));
        assertThat(collected.get(c)).isEmpty();
        assertThat(requests).containsExactlyInAnyOrder("/api/v1/deployments/dc/decisions/earliest 3",
                "/api/v1/deployments/dc/decisions/earliest 3");
    }

    @Test
    void knowsAheadTheLongestRunAnsweredSoFarThatHoldsEachOffsetWithoutAskingAgain() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        TaskId b = TaskId.parse("dc/join#1");
        URI shorter = peer(Map.of(a, new HeldDecisions(0, bytes(10, 0)), b, new HeldDecisions(6, bytes(5, 6))));
        URI longer = peer(Map.of(a, new HeldDecisions(0, bytes(30, 0))));
        URI silent = peers.silent();
        DecisionCollector.Prefetched ahead = new DecisionCollector(Duration.ofMillis(500))
                .prefetch(List.of(shorter, longer, silent), List.of(a, b));
        await().atMost(Duration.ofSeconds(5)).until(() -> requests.size() == 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> ahead.answeredFrom(Map.of(a, 0L)).get(a).length == 30);
        requests.clear();

        Map<TaskId, byte[]> known = ahead.answeredFrom(Map.of(a, 4L, b, 2L));

        assertThat(known.get(a)).isEqualTo(Arrays.copyOfRange(bytes(30, 0), 4, 30));
        assertThat(known.get(b)).as("the only run of b starts after its offset: nothing known, not asked")
                .isEmpty();
        assertThat(requests).as("what is known ahead is only what was answered").isEmpty();
    }

    @Test
    void asksAgainFromTheOffsetWhereAPeersEarliestRunStartsAfterIt() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        // the peer's earliest run starts at 10, after the snapshot's offset 6; asked from 6 it answers a longer run
        URI peer = peer(Map.of(a, new HeldDecisions(10, bytes(5, 10))),
                Map.of(a, new HeldDecisions(6, bytes(9, 6))));
        URI laggard = peer(Map.of());

        Map<TaskId, byte[]> collected = new DecisionCollector(Duration.ofSeconds(2))
                .prefetch(List.of(peer, laggard), List.of(a)).from(Map.of(a, 6L));

        assertThat(collected.get(a)).isEqualTo(bytes(9, 6));
        assertThat(requests).contains("/api/v1/deployments/dc/decisions 1");
    }

    @Test
    void splitsManyTasksIntoRequestsOfAtMostFiftyAndSkipsAPeerThatDoesNotAnswer() throws IOException {
        List<TaskId> tasks = IntStream.range(0, 120).mapToObj(i -> TaskId.parse("dc/count#" + i)).toList();
        Map<TaskId, HeldDecisions> runs = new HashMap<>();
        tasks.forEach(task -> runs.put(task, new HeldDecisions(0, bytes(task.subtask() + 1, task.subtask()))));
        URI peer = peer(runs);
        URI silent = peers.silent();
        Map<TaskId, Long> offsets = new HashMap<>();
        tasks.forEach(task -> offsets.put(task, 0L));

        Map<TaskId, byte[]> collected = new DecisionCollector(Duration.ofMillis(500))
                .prefetch(List.of(peer, silent), tasks).from(offsets);

        tasks.forEach(task -> assertThat(collected.get(task)).isEqualTo(bytes(task.subtask() + 1, task.subtask())));
        assertThat(requests).containsExactlyInAnyOrder("/api/v1/deployments/dc/decisions/earliest 50",
                "/api/v1/deployments/dc/decisions/earliest 50", "/api/v1/deployments/dc/decisions/earliest 20");
    }

    @Test
    void takesTheRunsFetchedAheadFromPeersWhoseSpansAreUnchangedAndAsksTheOthersAgain() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        TaskId b = TaskId.parse("dc/join#1");
        URI steady = peer(Map.of(a, new HeldDecisions(0, bytes(10, 0))));
        URI growing = peer(Map.of(b, new HeldDecisions(0, bytes(4, 0))));
        URI empty = peer(Map.of());
        DecisionCollector collector = new DecisionCollector(Duration.ofSeconds(2));
        DecisionCollector.Prefetched ahead = collector.prefetch(List.of(steady, growing, empty), List.of(a, b));
        ahead.from(Map.of()); // the prefetch is in
        // then the lost task's last frames reached one peer: it holds more of b when the failure is confirmed
        peers.hold(growing, Map.of(b, new HeldDecisions(0, bytes(9, 0))), Map.of());
        requests.clear();

        DecisionCollector.Prefetched confirmed = ahead.confirmedBy(Map.of(
                steady, Map.of(a, new DecisionSpan(0, 10)),
                growing, Map.of(b, new DecisionSpan(0, 9)),
                empty, Map.of()), List.of(steady, growing, empty), List.of(a, b), Map.of());
        Map<TaskId, byte[]> collected = confirmed.from(Map.of(a, 2L, b, 1L));

        assertThat(collected.get(a)).isEqualTo(Arrays.copyOfRange(bytes(10, 0), 2, 10));
        assertThat(collected.get(b)).as("the longer run, asked again").isEqualTo(Arrays.copyOfRange(bytes(9, 0), 1, 9));
        assertThat(requests).as("only the peer whose span changed is asked again")
                .containsExactly("/api/v1/deployments/dc/decisions/earliest 2");
        assertThat(confirmed.askedAgain()).isEqualTo(1);
    }

    @Test
    void asksAgainEveryPeerTheConfirmationLeftOutOrThatWasNotAskedAheadOrDidNotAnswer() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        URI unconfirmed = peer(Map.of(a, new HeldDecisions(0, bytes(3, 0))));
        URI late = peer(Map.of(a, new HeldDecisions(0, bytes(6, 0))));
        URI silent = peers.silent();
        // the silent peer costs this long; the others answer well within it, even on a loaded machine
        DecisionCollector collector = new DecisionCollector(Duration.ofMillis(1_500));
        DecisionCollector.Prefetched ahead = collector.prefetch(List.of(unconfirmed, silent), List.of(a));
        ahead.from(Map.of());
        requests.clear();

        // the silent peer says now that it holds a run: its missing answer does not pass for "nothing held"
        DecisionCollector.Prefetched confirmed = ahead.confirmedBy(Map.of(silent, Map.of(a,
                new DecisionSpan(0, 8)), late, Map.of(a, new DecisionSpan(0, 6))),
                List.of(unconfirmed, late, silent), List.of(a), Map.of());

        assertThat(confirmed.from(Map.of(a, 0L)).get(a)).isEqualTo(bytes(6, 0));
        assertThat(confirmed.askedAgain()).isEqualTo(3);
        assertThat(requests).hasSize(2); // the silent one is asked too, and again does not answer
    }

    @Test
    void namesTheRecoveringIncarnationOfEveryTaskInEveryRequestWhenItIsKnown() throws IOException {
        TaskId a = TaskId.parse("dc/join#0");
        TaskId b = TaskId.parse("dc/join#1");
        URI peer = peer(Map.of(a, new HeldDecisions(4, bytes(6, 0))), Map.of(a, new HeldDecisions(2, bytes(8, 0))));
        DecisionCollector collector = new DecisionCollector(Duration.ofSeconds(2));

        // a's earliest run starts after its offset: it is asked again from the offset, naming its incarnation too
        collector.prefetch(List.of(peer), List.of(a, b), Map.of(a, 3, b, 1)).from(Map.of(a, 2L, b, 0L));
        collector.prefetch(List.of(peer), List.of(a)).from(Map.of(a, 4L));

        assertThat(requests).containsExactly("/api/v1/deployments/dc/decisions/earliest 2",
                "/api/v1/deployments/dc/decisions 1", "/api/v1/deployments/dc/decisions/earliest 1");
        assertThat(peers.incarnations).containsExactly(List.of("3", "1"), List.of("3"), List.of());
    }
}

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Decisions fetched ahead while a failure is confirmed: a recovery with the router's id takes them once the peers'
 * spans for that recovery are in, asking no peer again whose spans are unchanged; without an id, without a prefetch,
 * or without the spans in time it asks every peer; what no recovery took is forgotten. Over real HTTP, against
 * stand-in peers.
 */
class DecisionPrefetchesTest {

    private static final TaskId A = TaskId.parse("dp/join#0");
    private static final TaskId B = TaskId.parse("dp/join#1");

    private final StandInPeers peers = new StandInPeers();
    private final AtomicLong now = new AtomicLong();
    private final DecisionPrefetches prefetches = new DecisionPrefetches(
            new DecisionCollector(Duration.ofSeconds(2)), Runnable::run, now::get, Duration.ofSeconds(2));

    @AfterEach
    void stop() {
        peers.close();
    }

    private URI holdingTenOfA() throws IOException {
        return peers.peer(Map.of(A, new HeldDecisions(0, StandInPeers.bytes(10, 0))));
    }

    @Test
    void aConfirmedRecoveryAsksNoPeerAgain() throws Exception {
        URI peer = holdingTenOfA();
        URI none = peers.peer(Map.of());
        prefetches.prefetch(List.of(peer, none), List.of(A, B));
        DecisionPrefetches.Collecting held = prefetches.collect("r-1", List.of(peer, none), List.of(A, B));
        CompletableFuture<DecisionCollector.Prefetched> collecting = held.confirmed();
        assertThat(collecting).as("waits for the spans").isNotDone();
        await("what was fetched ahead is known once answered, before the spans, from each offset")
                .atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(held.known(Map.of(A, 4L, B, 0L)))
                        .hasEntrySatisfying(A, known -> assertThat(known).isEqualTo(Arrays.copyOfRange(
                                StandInPeers.bytes(10, 0), 4, 10)))
                        .hasEntrySatisfying(B, known -> assertThat(known).isEmpty()));
        assertThat(held.known(Map.of(A, 11L)).get(A)).as("an offset past every run fetched ahead").isEmpty();

        prefetches.confirm("r-1", Map.of(peer, Map.of(A, new DecisionSpan(0, 10)), none, Map.of()));

        DecisionCollector.Prefetched runs = collecting.get(5, TimeUnit.SECONDS);
        assertThat(runs.from(Map.of(A, 0L, B, 0L)).get(A)).isEqualTo(StandInPeers.bytes(10, 0));
        assertThat(runs.fetchedAhead()).isTrue();
        assertThat(runs.askedAgain()).isZero();
        assertThat(peers.requests).as("the prefetch's two requests, nothing more").hasSize(2);
        assertThat(prefetches.size()).as("taken out, and the confirmation forgotten").isZero();
    }

    @Test
    void spansThatArriveBeforeTheRecoveryAreKeptForIt() throws Exception {
        URI peer = holdingTenOfA();
        prefetches.prefetch(List.of(peer), List.of(A));
        prefetches.confirm("r-2", Map.of(peer, Map.of(A, new DecisionSpan(0, 10))));

        DecisionCollector.Prefetched runs = prefetches.collect("r-2", List.of(peer), List.of(A)).confirmed()
                .get(5, TimeUnit.SECONDS);

        assertThat(runs.askedAgain()).isZero();
        assertThat(peers.requests).hasSize(1);
    }

    @Test
    void withoutTheRoutersIdOrAPrefetchForEveryTaskItAsksEveryPeerAtOnce() throws Exception {
        URI peer = holdingTenOfA();
        prefetches.prefetch(List.of(peer), List.of(A));

        DecisionCollector.Prefetched withoutId = prefetches.collect(null, List.of(peer), List.of(A)).confirmed()
                .get(5, TimeUnit.SECONDS);
        withoutId.from(Map.of(A, 0L));
        prefetches.prefetch(List.of(peer), List.of(A));
        DecisionCollector.Prefetched notCovered = prefetches.collect("r-3", List.of(peer), List.of(A, B))
                .confirmed().get(5, TimeUnit.SECONDS);
        notCovered.from(Map.of(A, 0L));

        assertThat(withoutId.fetchedAhead()).isFalse();
        assertThat(notCovered.fetchedAhead()).isFalse();

        await("the second prefetch, which no recovery waits for, answered too").atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(peers.requests)
                        .as("two prefetches, two requests when the recoveries came").hasSize(4));
        assertThat(prefetches.size()).as("the prefetch covering only A taken out all the same").isZero();
        assertThat(prefetches.collect("r-3", List.of(peer), List.of(A)).known(Map.of(A, 0L)))
                .as("nothing known ahead without a prefetch to take").isEmpty();
    }

    @Test
    void withoutTheSpansInTimeItAsksEveryPeerAgain() throws Exception {
        URI peer = holdingTenOfA();
        prefetches.prefetch(List.of(peer), List.of(A));

        DecisionCollector.Prefetched runs = prefetches.collect("r-4", List.of(peer), List.of(A)).confirmed()
                .get(5, TimeUnit.SECONDS);

        assertThat(runs.askedAgain()).isEqualTo(1);
        assertThat(runs.from(Map.of(A, 4L)).get(A)).hasSize(6);
    }

    @Test
    void forgetsWhatNoRecoveryTookInTime() throws Exception {
        URI peer = holdingTenOfA();
        prefetches.prefetch(List.of(peer), List.of(A));
        prefetches.confirm("r-5", Map.of(peer, Map.of()));
        assertThat(prefetches.size()).isEqualTo(2);

        now.addAndGet(DecisionPrefetches.KEPT_FOR.toNanos() + 1);

        assertThat(prefetches.size()).isZero();
        DecisionCollector.Prefetched runs = prefetches.collect("r-5", List.of(peer), List.of(A)).confirmed()
                .get(5, TimeUnit.SECONDS);

        assertThat(runs.from(Map.of(A, 0L)).get(A)).hasSize(10);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(peers.requests)
                .as("nothing fetched ahead any more: asked when the recovery came").hasSize(2));
    }
}

package io.steadfast.cluster;

import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RecoveryView;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

/** What end-to-end tests read of a topology through the router: its final results, its failed recoveries. */
final class TopologyOutcomes {

    private static final Duration POLL = Duration.ofMillis(200);

    private final RouterClient router;

    TopologyOutcomes(RouterClient router) {
        this.router = router;
    }

    /** Waits until every task of the topology FINISHED (failing fast on a FAILED task or recovery); the sink's values. */
    Map<String, Long> finalCounts(TopologyId id, OperatorId sink, Duration timeout) {
        AtomicReference<TopologyView> last = new AtomicReference<>();
        await("every task of %s FINISHED".formatted(id)).atMost(timeout).pollInterval(POLL)
                .failFast(() -> {
                    assertNoFailedRecovery(id);
                    if (last.get() != null && last.get().anyTaskFailed()) {
                        throw new AssertionError("a task FAILED: " + last.get().tasks());
                    }
                })
                .until(() -> {
                    last.set(router.topology(id));
                    return last.get().allTasksFinished();
                });
        Map<String, Long> counts = new TreeMap<>();
        router.results(id, sink, OptionalInt.empty()).values().forEach((key, value) -> counts.put(key, value.asLong()));
        return counts;
    }

    /** Fails at once if a recovery of the topology FAILED. */
    void assertNoFailedRecovery(TopologyId id) {
        router.recoveries().stream().filter(r -> r.topology().equals(id) && r.isFailed()).findFirst()
                .ifPresent(r -> {
                    throw new AssertionError("A recovery FAILED: " + RecoveryLine.format(r));
                });
    }

    /** Deploys a spec, waits for its final counts, deletes it: a failure-free reference run. */
    Map<String, Long> referenceCounts(String spec, OperatorId sink, Duration timeout) {
        TopologyId id = router.deploy(spec).id();
        Map<String, Long> counts = finalCounts(id, sink, timeout);
        router.delete(id);
        return counts;
    }

    RecoveryView describe(RecoveryView recovery) {
        System.out.println("[e2e] " + RecoveryLine.format(recovery));
        return recovery;
    }
}

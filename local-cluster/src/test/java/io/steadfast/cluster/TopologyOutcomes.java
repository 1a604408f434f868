package io.steadfast.cluster;

import static org.awaitility.Awaitility.await;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.progress.RecoveryChanges;
import io.steadfast.cluster.progress.RecoveryLine;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** What end-to-end tests read of a topology through the router: its final results, its recoveries. */
final class TopologyOutcomes {

    private static final Duration POLL = Duration.ofMillis(200);

    private final RouterClient router;
    private final Consumer<String> progress;
    private final RecoveryChanges recoveryChanges = new RecoveryChanges();

    /** @param progress takes each progress line (without the {@code [e2e]} prefix) */
    TopologyOutcomes(RouterClient router, Consumer<String> progress) {
        this.router = router;
        this.progress = progress;
    }

    /** Waits until every task of the topology FINISHED (failing fast on a FAILED task or recovery); the sink's values. */
    Map<String, Long> finalCounts(TopologyId id, OperatorId sink, Duration timeout) {
        awaitFinished(id, timeout, false);
        return results(id, sink);
    }

    /**
     * As {@link #finalCounts}, for a topology whose tasks are meant to fail and be restarted in place: fails fast only
     * on a FAILED recovery (a task out of restarts fails its topology's recovery).
     */
    Map<String, Long> finalCountsThroughRestarts(TopologyId id, OperatorId sink, Duration timeout) {
        awaitFinished(id, timeout, true);
        return results(id, sink);
    }

    private void awaitFinished(TopologyId id, Duration timeout, boolean tasksMayFail) {
        AtomicReference<TopologyDetail> last = new AtomicReference<>();
        await("every task of %s FINISHED".formatted(id)).atMost(timeout).pollInterval(POLL)
                .failFast(() -> {
                    assertNoFailedRecovery(id);
                    if (!tasksMayFail && last.get() != null && last.get().anyTaskFailed()) {
                        throw new AssertionError("a task FAILED: " + last.get().tasks());
                    }
                })
                .until(() -> {
                    last.set(router.topology(id));
                    return last.get().allTasksFinished();
                });
    }

    /** The latest value of every key a sink holds now, as longs. */
    Map<String, Long> results(TopologyId id, OperatorId sink) {
        Map<String, Long> values = new TreeMap<>();
        router.results(id, sink, OptionalInt.empty()).values().forEach((key, value) -> values.put(key, value.asLong()));
        return values;
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
        return referenceResults(spec, List.of(sink), timeout).get(sink);
    }

    /** Deploys a spec, waits until it finished, reads each sink's values, deletes it: a failure-free reference run. */
    Map<OperatorId, Map<String, Long>> referenceResults(String spec, List<OperatorId> sinks, Duration timeout) {
        TopologyId id = router.deploy(spec).id();
        awaitFinished(id, timeout, false);
        Map<OperatorId, Map<String, Long>> results = new LinkedHashMap<>();
        sinks.forEach(sink -> results.put(sink, results(id, sink)));
        router.delete(id);
        return results;
    }

    RecoveryView describe(RecoveryView recovery) {
        progress.accept(RecoveryLine.format(recovery));
        return recovery;
    }

    /** Prints a line for each recovery of the topology that appeared or changed its status since the last call. */
    void reportRecoveryChanges(TopologyId id) {
        recoveryChanges.since(router.recoveries(id))
                .forEach(recovery -> progress.accept(">> " + RecoveryLine.format(recovery)));
    }

    /**
     * The recoveries that did not end as a fault-tolerant platform must end them, each described: every recovery
     * RECOVERED, or ABANDONED as SUPERSEDED by a later recovery of the same topology that RECOVERED; none left
     * RECOVERING, none FAILED, none ABANDONED for another reason.
     */
    static List<String> unsettledRecoveries(List<RecoveryView> recoveries) {
        List<String> unsettled = new ArrayList<>();
        for (RecoveryView recovery : recoveries) {
            boolean settled = recovery.isRecovered() || recovery.isSuperseded() && recoveries.stream().anyMatch(
                    later -> later.topology().equals(recovery.topology()) && later.id() > recovery.id()
                            && later.isRecovered());
            if (!settled) {
                unsettled.add(RecoveryLine.format(recovery)
                        + (recovery.isSuperseded() ? " (no later recovery RECOVERED)" : ""));
            }
        }
        return unsettled;
    }
}

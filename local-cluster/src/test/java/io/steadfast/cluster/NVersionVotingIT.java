package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.client.RouterClient;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.protocol.router.TopologyVotes;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * N-version operators end to end with real processes: a checkpoint-service, a router, PE hosts and voter-services on
 * loopback, the examples jar's three scoring versions (a direct formula, a table lookup, an iterative loop) voted on by
 * majority, and a sink that chains a digest of each key's scores in order. Each run's digests must equal, key by key,
 * those of a reference run of one fault-free version without a vote, and the votes view must name what each version
 * did: one version wrong on about a tenth of its inputs and another that throws once (restarted in place while the
 * votes go on); the same with a PE host running a version task, or the voter running the vote tasks, killed (both
 * recovered LOCAL); and a version stalled well past the deadline (voted past, its late ballots counted and dropped).
 * Logs stay in {@code local-cluster/target/e2e-run/n-version-<timestamp>/}.
 */
@Timeout(600)
class NVersionVotingIT {

    private static final int COUNT = 200_000;
    private static final int RATE = 20_000;
    private static final int KEYS = 1000;
    private static final int HOSTS = 3;
    private static final int VOTERS = 2;
    private static final OperatorId SINK = new OperatorId("sink");
    private static final OperatorId SCORE = new OperatorId("score");
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("n-version", HOSTS).andStandbyHosts(1)
            .andVoters(VOTERS);

    private final RouterClient router = CLUSTER.router();

    /** Earlier tests killed hosts: fresh ones replace them, so that each test starts on a full cluster. */
    @BeforeEach
    void fullCluster() {
        CLUSTER.startHostsUntil(HOSTS + 1);
        CLUSTER.startVotersUntil(VOTERS);
    }

    @Test
    void aWrongVersionAndAThrowingOneAreMaskedAndTheVotesNameThem() {
        TopologyId id = router.deploy(scoring("e2e-masked", """
                {"type": "score-formula"},
                {"type": "score-table", "config": {"wrongFraction": 0.1}},
                {"type": "score-iterative", "config": {"throwAtInput": 30000}}""", 30_000)).id();

        assertThat(CLUSTER.finalCountsThroughRestarts(id, SINK, FINISH_TIMEOUT))
                .isEqualTo(reference("e2e-masked-reference"));
        List<TopologyVotes.Version> versions = votesOfScore(id);
        assertThat(versions.get(0)).as("the fault-free version").satisfies(agreedOnEveryInput());
        TopologyVotes.Version wrong = versions.get(1);
        assertThat(wrong.outvoted()).as("the wrong version is outvoted on about a tenth of its inputs")
                .isBetween(COUNT / 14L, COUNT / 7L);
        assertThat(wrong.agreed() + wrong.outvoted()).isEqualTo(COUNT);
        TopologyVotes.Version throwing = versions.get(2);
        assertThat(throwing.failed()).as("the version that threw").isGreaterThanOrEqualTo(1);
        assertThat(throwing.outvoted()).isZero();
        assertThat(throwing.agreed() + throwing.late()).isEqualTo(COUNT);
        assertThat(router.delete(id)).isTrue();
    }

    @Test
    void killingAHostThatRunsAVersionIsRecoveredLocallyAndStaysExact() {
        killMidRunAndCompare("e2e-version-host-killed", OperatorId::isVersion);
    }

    @Test
    void killingTheVoterIsRecoveredLocallyAndStaysExact() {
        killMidRunAndCompare("e2e-voter-killed", SCORE::equals);
    }

    /**
     * Runs the wrong-version topology, SIGKILLs a host running a task of an operator {@code victims} accepts after two
     * checkpoints, and checks a LOCAL recovery and exact digests; the fault-free version's counts show that every input
     * was voted on once, the vote tasks' records restored with their snapshots and the rest replayed.
     */
    private void killMidRunAndCompare(String name, Predicate<OperatorId> victims) {
        TopologyId id = router.deploy(scoring(name, FAULTY_VERSIONS, 30_000)).id();
        CLUSTER.awaitCompletedCheckpoints(id, 2);

        HostId victim = hostRunning(id, victims);
        CLUSTER.processes().killHost(victim);
        RecoveryView recovery = CLUSTER.awaitRecovered(id, victim, RECOVERY_TIMEOUT);

        assertThat(recovery.isLocal()).as("recovered LOCAL: %s", recovery).isTrue();
        assertThat(finalDigests(id)).isEqualTo(reference(name + "-reference"));
        assertThat(votesOfScore(id).get(0)).satisfies(agreedOnEveryInput());
        assertThat(router.delete(id)).isTrue();
    }

    /**
     * The deadline is short but not so short that a healthy version misses it on a busy two-core machine (a host
     * starved of CPU for a second would); the stall is three times as long.
     */
    @Test
    void aVersionStalledPastTheDeadlineIsVotedPastAndItsLateBallotsAreDropped() {
        Map<String, Long> reference = reference("e2e-stalled-reference");
        TopologyId id = router.deploy(scoring("e2e-stalled", """
                {"type": "score-formula"},
                {"type": "score-table"},
                {"type": "score-iterative", "config": {"stallAtInput": 20000, "stallMs": 6000}}""", 2_000)).id();

        assertThat(finalDigests(id)).isEqualTo(reference);
        List<TopologyVotes.Version> versions = votesOfScore(id);
        assertThat(versions.get(0)).satisfies(agreedOnEveryInput());
        assertThat(versions.get(1)).satisfies(agreedOnEveryInput());
        TopologyVotes.Version stalled = versions.get(2);
        assertThat(stalled.late()).as("ballots of the stalled version that came after their deadline").isPositive();
        assertThat(stalled.agreed() + stalled.outvoted() + stalled.late()).isEqualTo(COUNT);
        assertThat(router.delete(id)).isTrue();
    }

    private static final String FAULTY_VERSIONS = """
            {"type": "score-formula"},
            {"type": "score-table", "config": {"wrongFraction": 0.1}},
            {"type": "score-iterative"}""";

    private static Consumer<TopologyVotes.Version> agreedOnEveryInput() {
        return version -> assertThat(List.of(version.agreed(), version.outvoted(), version.late()))
                .as("agreed, outvoted and late ballots of %s", version).containsExactly((long) COUNT, 0L, 0L);
    }

    private static String scoring(String id, String versions, int deadlineMs) {
        return """
                {"id": "%s", "checkpointing": {"intervalMs": 1000, "timeoutMs": 20000}, "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": %d}},
                  {"id": "score", "parallelism": 2, "inputs": [{"from": "source", "partitioning": "key"}],
                   "versions": [%s],
                   "voting": {"strategy": "majority", "deadlineMs": %d}},
                  {"id": "digest", "type": "keyed-digest", "parallelism": 2,
                   "inputs": [{"from": "score", "partitioning": "key"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "digest", "partitioning": "key"}]}
                ]}""".formatted(id, COUNT, KEYS, RATE, versions, deadlineMs);
    }

    /** The digests of the same job with one fault-free version and no vote, unpaced. */
    private Map<String, Long> reference(String id) {
        TopologyId reference = router.deploy("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2, "config": {"count": %d, "keys": %d}},
                  {"id": "score", "type": "score-formula", "parallelism": 2,
                   "inputs": [{"from": "source", "partitioning": "key"}]},
                  {"id": "digest", "type": "keyed-digest", "parallelism": 2,
                   "inputs": [{"from": "score", "partitioning": "key"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "digest", "partitioning": "key"}]}
                ]}""".formatted(id, COUNT, KEYS)).id();
        Map<String, Long> digests = finalDigests(reference);
        assertThat(digests).hasSize(KEYS);
        assertThat(router.delete(reference)).isTrue();
        return digests;
    }

    private Map<String, Long> finalDigests(TopologyId id) {
        return CLUSTER.finalCounts(id, SINK, FINISH_TIMEOUT);
    }

    private List<TopologyVotes.Version> votesOfScore(TopologyId id) {
        TopologyVotes votes = router.votes(id);
        CLUSTER.log("votes of " + id + ": " + votes);
        assertThat(votes.operators()).singleElement().satisfies(operator -> {
            assertThat(operator.operator()).isEqualTo(SCORE);
            assertThat(operator.unavailable()).isEmpty();
        });
        return votes.operators().get(0).versions();
    }

    /** A live host that runs an unfinished task of an operator {@code operators} accepts. */
    private HostId hostRunning(TopologyId id, Predicate<OperatorId> operators) {
        List<HostId> live = CLUSTER.processes().liveHostIds();
        return router.topology(id).tasks().stream()
                .filter(task -> operators.test(task.task().operator()) && !task.isFinished()
                        && live.contains(task.host()))
                .map(TaskState::host).findFirst()
                .orElseThrow(() -> new AssertionError("no live host runs such a task of " + id));
    }
}

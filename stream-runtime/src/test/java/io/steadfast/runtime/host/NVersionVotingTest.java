package io.steadfast.runtime.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.task.TaskStatus;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologySpecReader;
import io.steadfast.runtime.topology.TopologyValidator;
import io.steadfast.runtime.voting.VersionRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * N-version operators on real hosts in one JVM (real JeroMQ on loopback): the voted output equals a single fault-free
 * version's, key by key, in order (the sink chains a digest of each key's values), and the vote tasks count what each
 * version did.
 */
@Timeout(180)
class NVersionVotingTest {

    private static final long COUNT = 40_000;
    private static final int KEYS = 101;

    private final OperatorRegistry registry = OperatorRegistry.of(List.of(new ScoringVersions()));
    private final List<HostRuntime> hosts = new ArrayList<>();

    @AfterEach
    void closeHosts() {
        hosts.forEach(HostRuntime::close);
    }

    @Test
    void aVersionWrongOnATenthOfItsInputsIsOutvotedAndTheOutputEqualsTheReferenceKeyByKey() {
        Map<String, Object> reference = run("reference", """
                {"id": "score", "type": "score-formula", "parallelism": 2, "inputs": [{"from": "source"}]}""");

        Map<String, Object> voted = run("voted", """
                {"id": "score", "parallelism": 2, "inputs": [{"from": "source"}],
                 "versions": [{"type": "score-formula"}, {"type": "score-wrong"}, {"type": "score-loop"}],
                 "voting": {"strategy": "majority", "deadlineMs": 30000}}""");

        assertThat(voted).hasSize(KEYS).isEqualTo(reference);
        List<VersionCounts> counts = versionCounts("voted");
        assertThat(counts.get(0)).isEqualTo(new VersionCounts(COUNT, 0, 0));
        assertThat(counts.get(2)).isEqualTo(new VersionCounts(COUNT, 0, 0));
        long wrong = 0;
        for (long i = 0; i < COUNT; i++) {
            wrong += ScoringVersions.wrongFor(1_700_000_000_000L + i) ? 1 : 0;
        }
        assertThat(wrong).isBetween(COUNT / 20, COUNT / 5);
        assertThat(counts.get(1)).isEqualTo(new VersionCounts(COUNT - wrong, wrong, 0));
    }

    @Test
    void aStalledVersionIsVotedPastAndItsLateOutputsAreCountedNotEmitted() {
        Map<String, Object> reference = run("reference", """
                {"id": "score", "type": "score-formula", "parallelism": 1, "inputs": [{"from": "source"}]}""");

        Map<String, Object> voted = run("stalled", """
                {"id": "score", "parallelism": 1, "inputs": [{"from": "source"}],
                 "versions": [{"type": "score-formula"}, {"type": "score-stall"}, {"type": "score-loop"}],
                 "voting": {"strategy": "majority", "deadlineMs": 2500}}""");

        assertThat(voted).isEqualTo(reference);
        List<VersionCounts> counts = versionCounts("stalled");
        assertThat(counts.get(1).late()).as("late ballots of the stalled version").isPositive();
        assertThat(counts.get(0)).as("the versions that did not stall agreed on every input")
                .isEqualTo(new VersionCounts(COUNT, 0, 0)).isEqualTo(counts.get(2));
        assertThat(counts.get(1).agreed() + counts.get(1).outvoted() + counts.get(1).late()).isEqualTo(COUNT);
    }

    record VersionCounts(long agreed, long outvoted, long late) {
    }

    private final Map<String, Run> runs = new TreeMap<>();

    private record Run(ExecutionPlan plan, TaskPlacement placement) {
    }

    private Map<String, Object> run(String id, String score) {
        String spec = """
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "parallelism": 1,
                   "config": {"count": %d, "keys": %d, "ratePerSecond": 20000}},
                  %s,
                  {"id": "digest", "type": "keyed-digest", "parallelism": 2, "inputs": [{"from": "score"}]},
                  {"id": "sink", "type": "latest-value-sink", "parallelism": 1, "inputs": [{"from": "digest"}]}
                ]}""".formatted(id, COUNT, KEYS, score);
        ExecutionPlan plan = PlanExpander.expand(new TopologyValidator(registry).validate(new TopologySpecReader()
                .read(spec)));
        List<HostRuntime> three = List.of(startHost(id + "-a"), startHost(id + "-b"), startHost(id + "-c"));
        TaskPlacement placement = MultiHostKeyedCountTest.roundRobin(plan, three);
        three.forEach(host -> host.deploy(plan, placement));
        runs.put(id, new Run(plan, placement));
        TaskId sink = plan.tasksOf(OperatorId.of("sink")).get(0).id();
        await().atMost(Duration.ofSeconds(120))
                .until(() -> hostOf(sink, placement).task(sink).orElseThrow().status() == TaskStatus.FINISHED);
        return hostOf(sink, placement).queryAll(sink, "latest", Integer.MAX_VALUE).join();
    }

    private List<VersionCounts> versionCounts(String id) {
        Run run = runs.get(id);
        long[][] sums = new long[3][3];
        for (TaskSpec vote : run.plan().tasksOf(OperatorId.of("score"))) {
            List<VersionRecord> versions = VersionRecord.listOf(hostOf(vote.id(), run.placement())
                    .queryTaskState(vote.id(), VersionRecord.TASK_STATE).join().orElseThrow());
            for (int v = 0; v < 3; v++) {
                VersionRecord record = versions.get(v);
                sums[v][0] += record.agreed();
                sums[v][1] += record.outvoted();
                sums[v][2] += record.late();
            }
        }
        List<VersionCounts> counts = new ArrayList<>();
        for (long[] sum : sums) {
            counts.add(new VersionCounts(sum[0], sum[1], sum[2]));
        }
        return counts;
    }

    private HostRuntime startHost(String name) {
        HostRuntime host = new HostRuntime(new HostId(name), registry, DataPlane.start(DataPlaneConfig.defaults()),
                TaskSettings.defaults(), Clock.systemUTC());
        hosts.add(host);
        return host;
    }

    private HostRuntime hostOf(TaskId task, TaskPlacement placement) {
        HostId id = placement.hostOf(task);
        return hosts.stream().filter(h -> h.id().equals(id)).findFirst().orElseThrow();
    }
}

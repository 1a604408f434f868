package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.TaskMeters;
import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.host.snapshot.SnapshotStore;
import io.steadfast.host.snapshot.TakenSnapshot;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.host.TaskPlacement;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.task.OperatorSnapshot;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The warm-up keeps its own job's snapshots from the uploader, which still gets every other topology's, and serves
 * them to the host's restores instead of the checkpoint-service (the rehearsals themselves:
 * {@link InPlaceRecoveryRehearsalTest}).
 */
class InPlaceRecoveryWarmUpTest {

    private final List<TaskId> uploaded = new CopyOnWriteArrayList<>();
    private final WarmUpSnapshots snapshots = new WarmUpSnapshots(
            (task, incarnation, checkpointId, snapshot, syncNanos) -> uploaded.add(task));
    private final OperatorRegistry registry = OperatorRegistry.load();
    private final HostRuntime runtime = new HostRuntime(new HostId("warm-host"), registry,
            DataPlane.start(DataPlaneConfig.defaults()), TaskSettings.defaults(), Clock.systemUTC(), snapshots);
    private final ProcessingNode node = new ProcessingNode(runtime, registry,
            new TaskMeters(new SimpleMeterRegistry(), runtime), Clock.systemUTC());

    @AfterEach
    void close() {
        node.close();
    }

    @Test
    void restoresFromTheSnapshotsItKeepsForItsOwnTopologyAndFromTheStoreForEveryOther() {
        InMemorySnapshotStore store = new InMemorySnapshotStore();
        TaskId other = TaskId.parse("job/count#0");
        store.put(other, 3, new TakenSnapshot(0, snapshotOf("keyed-count").toBytes()));
        snapshots.keep(InPlaceRecoveryWarmUp.TOPOLOGY);
        TaskId warmUpSource = TaskId.parse(InPlaceRecoveryWarmUp.TOPOLOGY + "/source#0");
        TaskId warmUpSink = TaskId.parse(InPlaceRecoveryWarmUp.TOPOLOGY + "/sink#0");
        OperatorSnapshot kept = snapshotOf("generator");
        snapshots.onSnapshot(warmUpSource, 0, 1, kept, 0);

        SnapshotStore reads = snapshots.before(store);

        assertThat(reads.getAll(List.of(warmUpSource, warmUpSink), 1)).containsOnlyKeys(warmUpSource)
                .hasEntrySatisfying(warmUpSource, bytes -> assertThat(OperatorSnapshot.fromBytes(bytes)).isEqualTo(kept));
        assertThat(reads.get(warmUpSink, 1)).isEmpty();
        assertThat(reads.getAll(List.of(other), 3)).containsOnlyKeys(other);
        assertThat(reads.get(other, 4)).as("another checkpoint of another topology: the store's answer").isEmpty();
        snapshots.drop(InPlaceRecoveryWarmUp.TOPOLOGY);
        assertThat(reads.get(warmUpSource, 1)).as("no longer kept: asked of the store, which has none").isEmpty();
        assertThat(uploaded).as("kept, not uploaded").isEmpty();
    }

    @Test
    void passesTheSnapshotsOfOtherTopologiesOnToTheUploaderWhileItKeepsItsOwn() {
        snapshots.keep(InPlaceRecoveryWarmUp.TOPOLOGY);
        ExecutionPlan plan = PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "job", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 1000000, "keys": 10, "ratePerSecond": 1000}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}"""));
        Map<TaskId, HostId> hosts = new TreeMap<>();
        plan.tasks().forEach(task -> hosts.put(task.id(), node.id()));
        node.deploy(plan, new TaskPlacement(hosts, Map.of(node.id(), node.dataEndpoint())));
        node.triggerCheckpoint(plan.topology(), 1);

        await().atMost(Duration.ofSeconds(10)).until(() -> uploaded.size() == 2);
        assertThat(uploaded).containsExactlyInAnyOrder(TaskId.parse("job/source#0"), TaskId.parse("job/sink#0"));
        assertThat(snapshots.of(InPlaceRecoveryWarmUp.TOPOLOGY)).isEmpty();
    }

    /** A snapshot of an operator type with a few bytes of state, encoded as an early version wrote it. */
    private static OperatorSnapshot snapshotOf(String type) {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(64);
        out.writeInt(0x53464F53);
        out.writeByte(1);
        out.writeString(type);
        out.writeBytes(new byte[] {1, 2, 3});
        return OperatorSnapshot.fromBytes(out.toByteArray());
    }
}

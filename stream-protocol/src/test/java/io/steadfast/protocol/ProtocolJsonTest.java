package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.host.CatchUpTargets;
import io.steadfast.protocol.host.InPlaceRecoveryRequest;
import io.steadfast.protocol.host.Placement;
import io.steadfast.protocol.host.RedirectResponse;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The bodies' JSON keeps the shape it had with bare ids: typed ids are text (numbers for checkpoints), keys too. */
class ProtocolJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TaskId TASK = TaskId.parse("t/count#0");
    private static final HostId HOST = new HostId("host-a");

    @Test
    void writesTypedIdsAsBareValuesAndMapKeysAndReadsThemBack() {
        Placement placement = new Placement(Map.of(TASK, HOST), Map.of(HOST, "tcp://127.0.0.1:1"), Map.of(TASK, 2));

        JsonNode written = JSON.valueToTree(placement);

        assertThat(written.get("hosts").get("t/count#0").asString()).isEqualTo("host-a");
        assertThat(written.get("endpoints").get("host-a").asString()).isEqualTo("tcp://127.0.0.1:1");
        assertThat(written.get("incarnations").get("t/count#0").asInt()).isEqualTo(2);
        assertThat(JSON.treeToValue(written, Placement.class)).isEqualTo(placement);
    }

    @Test
    void readsChannelAndTaskKeysOfARedirectAnswer() {
        RedirectResponse answer = JSON.readValue("""
                {"channels": 1, "heads": {"t~0@4": 17}, "heldDecisions": {"t/count#0": {"from": 0, "end": 4}}}""",
                RedirectResponse.class);

        assertThat(answer.heads()).containsEntry(ChannelId.parse("t~0@4"), 17L);
        assertThat(answer.heldDecisions()).containsEntry(TASK, new DecisionSpan(0, 4));
    }

    @Test
    void writesChannelKeysWithTheirEpochAsTheTextTheyAreReadFrom() {
        CatchUpTargets targets = new CatchUpTargets(Map.of(ChannelId.parse("t~0@4"), 17L, ChannelId.parse("t~1"), 3L),
                "r", Map.of());

        JsonNode written = JSON.valueToTree(targets);

        assertThat(written.get("heads").propertyNames()).containsExactlyInAnyOrder("t~0@4", "t~1");
        assertThat(JSON.treeToValue(written, CatchUpTargets.class)).isEqualTo(targets);
    }

    @Test
    void readsPeerUrlKeysOfCatchUpTargets() {
        CatchUpTargets targets = JSON.readValue("""
                {"heads": {"t~0": 3}, "recovery": "r", "heldDecisions": {"http://127.0.0.1:1": {}}}""",
                CatchUpTargets.class);

        assertThat(targets.heldDecisions()).containsOnlyKeys(URI.create("http://127.0.0.1:1"));
    }

    @Test
    void writesARecoveryRequestsGroupsAsMembersOfTheBodyAndCheckpointIdsAsNumbers() {
        InPlaceRecoveryRequest request = new InPlaceRecoveryRequest(null, 4,
                new Placement(Map.of(TASK, HOST), Map.of(HOST, "tcp://h:1"), Map.of()), List.of(TASK),
                new InPlaceRecoveryRequest.Checkpoints(new CheckpointId(3), new CheckpointId(5)),
                List.of(URI.create("http://h:2")), new InPlaceRecoveryRequest.Round(List.of(TASK), Instant.EPOCH, "r"));

        JsonNode written = JSON.valueToTree(request);

        assertThat(written.has("plan")).isFalse();
        assertThat(written.get("placement").has("incarnations")).isFalse();
        assertThat(written.get("checkpointId").isNumber()).isTrue();
        assertThat(written.get("checkpointId").asLong()).isEqualTo(3);
        assertThat(written.get("latestTriggered").asLong()).isEqualTo(5);
        assertThat(written.get("recovery").asString()).isEqualTo("r");
        assertThat(written.get("tasks").get(0).asString()).isEqualTo("t/count#0");
        InPlaceRecoveryRequest read = JSON.treeToValue(written, InPlaceRecoveryRequest.class);
        assertThat(read.checkpoints()).isEqualTo(request.checkpoints());
        assertThat(read.roundOrEmpty()).isEqualTo(request.round());
        assertThat(read.tasks()).containsExactly(TASK);
    }
}

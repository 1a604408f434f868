package io.steadfast.router.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import org.junit.jupiter.api.Test;

class TaskFailureCountsTest {

    private static final TopologyId TOPOLOGY = TopologyId.of("t");

    @Test
    void countsEachFailedIncarnationOnceAndVersionsAsVotesFailedCounters() {
        TaskFailureCounts counts = new TaskFailureCounts();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        counts.failed(TaskId.parse("t/score~v2#0"), 1);
        counts.bindTo(meters);

        counts.failed(TaskId.parse("t/score~v2#0"), 1); // the same report seen again
        counts.failed(TaskId.parse("t/score~v2#1"), 1);
        counts.failed(TaskId.parse("t/score~v2#0"), 2);
        counts.failed(TaskId.parse("t/count#0"), 1);

        assertThat(counts.of(TOPOLOGY, OperatorId.of("score~v2"))).isEqualTo(3);
        assertThat(counts.of(TOPOLOGY, OperatorId.of("count"))).isEqualTo(1);
        assertThat(counts.of(TOPOLOGY, OperatorId.of("score~v0"))).isZero();
        assertThat(meters.get("steadfast.votes.failed").tags("topology", "t", "operator", "score", "version", "2")
                .functionCounter().count()).isEqualTo(3);
        assertThat(meters.find("steadfast.votes.failed").tag("operator", "count").functionCounter()).isNull();
    }
}

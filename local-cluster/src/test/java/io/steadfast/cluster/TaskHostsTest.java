package io.steadfast.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskHostsTest {

    private static final HostId ONE = new HostId("host-1");
    private static final HostId TWO = new HostId("host-2");
    private static final HostId THREE = new HostId("host-3");

    private static final TopologyDetail VIEW = new TopologyDetail(new TopologyId("t"), "RUNNING",
            new TopologyDetail.Milestones(Instant.EPOCH, 0, null, 0), null, List.of(
            task("t/source#0", TWO, "FINISHED"),
            task("t/count#0", TWO, "RUNNING"),
            task("t/sink#0", THREE, "RUNNING"),
            task("t/source#1", ONE, "FINISHED")), List.of(), List.of());

    @Test
    void namesTheHostsRunningUnfinishedTasksOfTheOperatorsAsked() {
        assertThat(TaskHosts.runningUnfinishedTasks(VIEW)).containsExactly(TWO, THREE);
        assertThat(TaskHosts.runningUnfinishedTasksOf(VIEW, operator -> !operator.equals(new OperatorId("sink"))))
                .containsExactly(TWO);
    }

    @Test
    void namesEveryHostOfATaskAndTheTasksOfAHost() {
        assertThat(TaskHosts.ofTasks(VIEW)).containsExactly(ONE, TWO, THREE);
        assertThat(TaskHosts.tasksOn(VIEW, TWO)).containsExactly(TaskId.parse("t/source#0"), TaskId.parse("t/count#0"));
        assertThat(VIEW.tasks().get(1).task().operator()).isEqualTo(new OperatorId("count"));
    }

    private static TaskState task(String id, HostId host, String status) {
        return new TaskState(TaskId.parse(id), host, "LIVE", status, TopologyDetail.Traffic.NONE, null);
    }
}

package io.steadfast.cluster.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyViewTest {

    private static final HostId ONE = new HostId("host-1");
    private static final HostId TWO = new HostId("host-2");
    private static final HostId THREE = new HostId("host-3");

    private static final TopologyView VIEW = new TopologyView(new TopologyId("t"), "RUNNING", null, List.of(
            new TaskView("t/source#0", TWO, "FINISHED", 0, 10),
            new TaskView("t/count#0", TWO, "RUNNING", 10, 10),
            new TaskView("t/sink#0", THREE, "RUNNING", 10, 0),
            new TaskView("t/source#1", ONE, "FINISHED", 0, 10),
            new TaskView("t/count#1", null, "DEPLOYING", 0, 0)), List.of());

    @Test
    void namesTheHostsRunningUnfinishedTasksOfTheOperatorsAsked() {
        assertThat(VIEW.hostsRunningUnfinishedTasks()).containsExactly(TWO, THREE);
        assertThat(VIEW.hostsRunningUnfinishedTasksOf(operator -> !operator.equals(new OperatorId("sink"))))
                .containsExactly(TWO);
    }

    @Test
    void namesEveryHostOfATaskAndTheTasksOfAHost() {
        assertThat(VIEW.hostsOfTasks()).containsExactly(ONE, TWO, THREE);
        assertThat(VIEW.tasksOn(TWO)).containsExactly("t/source#0", "t/count#0");
        assertThat(VIEW.tasks().get(1).operator()).isEqualTo(new OperatorId("count"));
    }
}

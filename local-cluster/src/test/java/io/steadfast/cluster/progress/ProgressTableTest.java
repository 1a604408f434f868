package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.client.OperatorView;
import io.steadfast.cluster.client.TaskView;
import io.steadfast.cluster.client.TopologyView;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTableTest {

    @Test
    void printsOneRowPerOperatorAndCountsTaskStatuses() {
        TopologyView view = new TopologyView(new TopologyId("word-count"), "RUNNING", null,
                List.of(task("source#0", "RUNNING"), task("source#1", "FINISHED"), task("count#0", "RUNNING")),
                List.of(new OperatorView(new OperatorId("source"), 0, 1_234_567, 199_842.6),
                        new OperatorView(new OperatorId("count"), 1_234_000, 1_234_000, 200_001)));

        String table = ProgressTable.format(view, Duration.ofSeconds(12));

        assertThat(table).isEqualToNormalizingNewlines("""
                [  12s] topology word-count  RUNNING
                  operator             events/s     records in    records out
                  source                199,843              0      1,234,567
                  count                 200,001      1,234,000      1,234,000
                  tasks 3: FINISHED 1, RUNNING 2
                """);
    }

    @Test
    void namesFailedTasksAndTheirHosts() {
        TopologyView view = new TopologyView(new TopologyId("t"), "FAILED", null,
                List.of(task("t/count#1", "FAILED")), List.of());

        assertThat(ProgressTable.format(view, Duration.ZERO)).contains("tasks 1: FAILED 1", "FAILED t/count#1 on host-1");
    }

    @Test
    void saysSoWhenThereAreNoTasksYet() {
        TopologyView view = new TopologyView(new TopologyId("t"), "DEPLOYING", null, List.of(), List.of());

        assertThat(ProgressTable.format(view, Duration.ZERO)).contains("tasks 0: none yet");
        assertThat(view.allTasksFinished()).isFalse();
    }

    private static TaskView task(String id, String status) {
        return new TaskView(id, new HostId("host-1"), status, 0, 0);
    }
}

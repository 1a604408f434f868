package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.OperatorRate;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressTableTest {

    @Test
    void printsOneRowPerOperatorAndCountsTaskStatuses() {
        TopologyDetail view = detail("word-count", "RUNNING",
                List.of(task("word-count/source#0", "RUNNING"), task("word-count/source#1", "FINISHED"),
                        task("word-count/count#0", "RUNNING")),
                List.of(new OperatorRate(new OperatorId("source"), 0, 1_234_567, 199_842.6),
                        new OperatorRate(new OperatorId("count"), 1_234_000, 1_234_000, 200_001)));

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
        TopologyDetail view = detail("t", "FAILED", List.of(task("t/count#1", "FAILED")), List.of());

        assertThat(ProgressTable.format(view, Duration.ZERO)).contains("tasks 1: FAILED 1", "FAILED t/count#1 on host-1");
    }

    @Test
    void saysSoWhenThereAreNoTasksYet() {
        TopologyDetail view = detail("t", "DEPLOYING", List.of(), List.of());

        assertThat(ProgressTable.format(view, Duration.ZERO)).contains("tasks 0: none yet");
        assertThat(view.allTasksFinished()).isFalse();
    }

    private static TopologyDetail detail(String id, String status, List<TaskState> tasks,
                                         List<OperatorRate> operators) {
        return new TopologyDetail(new TopologyId(id), status, new TopologyDetail.Milestones(Instant.EPOCH, 0, null, 0),
                null, tasks, operators, List.of());
    }

    private static TaskState task(String id, String status) {
        return new TaskState(TaskId.parse(id), new HostId("host-1"), "LIVE", status, TopologyDetail.Traffic.NONE, null);
    }
}

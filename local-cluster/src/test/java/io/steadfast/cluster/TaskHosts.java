package io.steadfast.cluster;

import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.OperatorId;
import java.util.List;
import java.util.function.Predicate;

/** Where a topology's tasks run, as the end-to-end tests ask it to pick a host to hit and to describe what it hit. */
final class TaskHosts {

    private TaskHosts() {
    }

    /** The hosts the router placed an unfinished task on, sorted: where a fault still hits the job. */
    static List<HostId> runningUnfinishedTasks(TopologyDetail topology) {
        return runningUnfinishedTasksOf(topology, operator -> true);
    }

    /** The hosts the router placed an unfinished task of an operator that {@code operators} accepts on, sorted. */
    static List<HostId> runningUnfinishedTasksOf(TopologyDetail topology, Predicate<OperatorId> operators) {
        return topology.tasks().stream().filter(task -> !task.isFinished() && operators.test(task.task().operator()))
                .map(TaskState::host).distinct().sorted().toList();
    }

    /** The hosts the router placed any task on (finished or not), sorted. */
    static List<HostId> ofTasks(TopologyDetail topology) {
        return topology.tasks().stream().map(TaskState::host).distinct().sorted().toList();
    }

    /** The tasks the router placed on {@code host}, in plan order. */
    static List<TaskId> tasksOn(TopologyDetail topology, HostId host) {
        return topology.tasks().stream().filter(task -> host.equals(task.host())).map(TaskState::task).toList();
    }
}

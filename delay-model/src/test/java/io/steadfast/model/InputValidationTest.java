package io.steadfast.model;

import static io.steadfast.model.Plans.task;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.topology.OperatorId;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class InputValidationTest {

    private static final ExecutionPlan CHAIN = Plans.chain();

    private static List<TaskLoad> chainLoads() {
        return List.of(TaskLoad.of(task("t/source#0"), 100, 0.001), TaskLoad.of(task("t/map#0"), 100, 0.001),
                TaskLoad.of(task("t/sink#0"), 100, 0.001));
    }

    @Test
    void rejectsANegativeArrivalRateNamingTaskFieldAndValue() {
        assertThatThrownBy(() -> TaskLoad.of(task("t/map#0"), -5, 0.001))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TaskLoad of t/map#0: arrivalPerSecond must be a finite number >= 0, was -5.0");
    }

    @Test
    void rejectsANotANumberServiceTime() {
        assertThatThrownBy(() -> TaskLoad.of(task("t/map#0"), 100, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("t/map#0").hasMessageContaining("serviceSecondsPerRecord")
                .hasMessageContaining("NaN");
    }

    @Test
    void rejectsAnInfiniteOrNegativeVariation() {
        TaskLoad load = TaskLoad.of(task("t/map#0"), 100, 0.001);
        assertThatThrownBy(() -> load.withScv(Double.POSITIVE_INFINITY, 1)).hasMessageContaining("arrivalScv");
        assertThatThrownBy(() -> load.withScv(1, -0.5)).hasMessageContaining("serviceScv");
        assertThatThrownBy(() -> load.withQueuedRecords(-1)).hasMessageContaining("queuedRecords");
    }

    @Test
    void rejectsFramesOfFewerThanOneRecord() {
        assertThatThrownBy(() -> TaskLoad.of(task("t/map#0"), 100, 0.001).withRecordsPerFrame(0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TaskLoad of t/map#0: recordsPerFrame must be at least 1, was 0.5");
    }

    @Test
    void rejectsNegativeStateOrLogSizes() {
        assertThatThrownBy(() -> new TaskState(-1, 0)).hasMessageContaining("stateBytes");
        assertThatThrownBy(() -> new TaskState(0, -1)).hasMessageContaining("loggedRecords");
    }

    @Test
    void rejectsALoadForATaskThatIsNotInThePlan() {
        List<TaskLoad> loads = new ArrayList<>(chainLoads());
        loads.add(TaskLoad.of(task("t/ghost#0"), 1, 0.001));

        assertThatThrownBy(() -> TaskLoads.of(CHAIN, loads)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("t/ghost#0").hasMessageContaining("not in the plan");
    }

    @Test
    void rejectsLoadsThatLeaveATaskOutNamingIt() {
        List<TaskLoad> loads = chainLoads().subList(0, 2);

        assertThatThrownBy(() -> TaskLoads.of(CHAIN, loads)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no load for task t/sink#0; give a TaskLoad for every task of the plan of 't' (3 tasks)");
    }

    @Test
    void rejectsTwoLoadsForOneTask() {
        List<TaskLoad> loads = new ArrayList<>(chainLoads());
        loads.add(TaskLoad.of(task("t/map#0"), 1, 0.001));

        assertThatThrownBy(() -> TaskLoads.of(CHAIN, loads)).hasMessageContaining("two loads name task t/map#0");
    }

    @Test
    void rejectsAPlacementThatLeavesATaskOutOrNamesAStranger() {
        assertThatThrownBy(() -> Placement.of(CHAIN, Plans.placement("t/source#0", "h1", "t/map#0", "h1")))
                .hasMessageContaining("no host for task t/sink#0");
        assertThatThrownBy(() -> Placement.of(CHAIN, Plans.placement("t/source#0", "h1", "t/map#0", "h1",
                "t/sink#0", "h1", "t/ghost#0", "h2"))).hasMessageContaining("t/ghost#0");
    }

    @Test
    void rejectsSettingsTheModelCannotComputeWith() {
        assertThatThrownBy(() -> new RestoreCost(0, 0.005, RestoreOrder.SERIAL))
                .hasMessage("RestoreCost: bytesPerSecond must be a finite number > 0, was 0.0");
        assertThatThrownBy(() -> new RestartCost(-0.1, 0)).hasMessageContaining("perRecoverySeconds");
        assertThatThrownBy(() -> new CheckpointTiming(1, 0.05, OptionalDouble.of(Double.NaN)))
                .hasMessageContaining("sinceCompletedSeconds");
        assertThatThrownBy(() -> new RecoverySettings(-1, new RestartCost(0, 0),
                new RestoreCost(1, 0, RestoreOrder.SERIAL), CheckpointTiming.expected(1, 0)))
                .hasMessageContaining("detectionSeconds");
        assertThatThrownBy(() -> new ChannelCost(Double.NaN, 0)).hasMessageContaining("meanLingerSeconds");
    }

    @Test
    void rejectsAChannelCostForAnEdgeThePlanDoesNotHave() {
        ChannelCosts costs = ChannelCosts.uniform(ChannelCost.NONE)
                .withEdge(new OperatorId("sink"), new OperatorId("source"), new ChannelCost(0.001, 0));

        assertThatThrownBy(() -> DelayModel.forPlan(CHAIN).loads(chainLoads()).channelCosts(costs)
                .placement(Plans.placement("t/source#0", "h1", "t/map#0", "h1", "t/sink#0", "h1"))
                .recovery(DelayModelTest.settings()).report())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("edge sink->source");
    }

    @Test
    void saysWhichInputTheFacadeWasNotGiven() {
        assertThatThrownBy(() -> DelayModel.forPlan(CHAIN).loads(chainLoads())
                .channelCosts(ChannelCosts.uniform(ChannelCost.NONE)).report())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no placement");
    }
}

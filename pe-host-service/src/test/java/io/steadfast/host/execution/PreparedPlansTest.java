package io.steadfast.host.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.host.HostAssignment;
import io.steadfast.runtime.host.HostDeployment;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.PlanExpander;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.topology.TopologySpecReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The plans a host fetches ahead follow the router's view: fetched once per epoch, dropped when not needed. */
class PreparedPlansTest {

    private final PreparedPlans plans = new PreparedPlans();
    private final Map<TopologyId, ExecutionPlan> router = new HashMap<>();
    private final List<TopologyId> fetches = new ArrayList<>();

    private Optional<ExecutionPlan> fetch(TopologyId topology) {
        fetches.add(topology);
        return Optional.ofNullable(router.get(topology));
    }

    private static ExecutionPlan plan(String id, int epoch) {
        return PlanExpander.expand(new TopologySpecReader().read("""
                {"id": "%s", "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 1, "keys": 1}},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "source"}]}
                ]}""".formatted(id))).withEpoch(epoch);
    }

    /** A plan the router serves. */
    private ExecutionPlan served(String id, int epoch) {
        ExecutionPlan plan = plan(id, epoch);
        router.put(plan.topology(), plan);
        return plan;
    }

    private static HostAssignment view(ExecutionPlan... running) {
        return new HostAssignment(List.of(running).stream()
                .map(plan -> new HostDeployment(plan.topology(), plan.epoch(), List.of())).toList());
    }

    @Test
    void fetchesThePlanOfEachTopologyOncePerEpochAndHandsItOutAtThatEpochOnly() {
        ExecutionPlan a = served("a", 0);
        ExecutionPlan b = served("b", 2);

        assertThat(plans.update(view(a, b), topology -> false, this::fetch)).containsExactly(a.topology(),
                b.topology());
        assertThat(plans.update(view(a, b), topology -> false, this::fetch)).isEmpty();
        assertThat(fetches).containsExactly(a.topology(), b.topology());
        assertThat(plans.at(b.topology(), 2)).contains(b);
        assertThat(plans.at(b.topology(), 1)).isEmpty();

        ExecutionPlan redeployed = b.withEpoch(3);
        router.put(b.topology(), redeployed);
        assertThat(plans.update(view(a, redeployed), topology -> false, this::fetch)).containsExactly(b.topology());
        assertThat(plans.at(b.topology(), 3)).contains(redeployed);
        assertThat(plans.at(b.topology(), 2)).isEmpty();
    }

    @Test
    void dropsThePlansOfTopologiesThatAreGoneOrRunHereAndNeverFetchesThose() {
        ExecutionPlan a = served("a", 0);
        ExecutionPlan b = served("b", 0);
        plans.update(view(a, b), topology -> false, this::fetch);

        plans.update(view(a), topology -> false, this::fetch);
        assertThat(plans.topologies()).containsExactly(a.topology());

        fetches.clear();
        plans.update(view(a), a.topology()::equals, this::fetch);
        assertThat(plans.topologies()).isEmpty();
        assertThat(fetches).isEmpty();
    }

    @Test
    void keepsNoPlanTheRouterAnswersAtAnotherEpochOrNotAtAll() {
        ExecutionPlan a = plan("a", 1);
        router.put(a.topology(), a.withEpoch(2)); // redeployed between the heartbeat and the fetch
        assertThat(plans.update(view(a), topology -> false, this::fetch)).isEmpty();
        assertThat(plans.at(a.topology(), 1)).isEmpty();
        assertThat(plans.at(a.topology(), 2)).isEmpty();

        router.clear(); // cancelled meanwhile
        assertThat(plans.update(view(a), topology -> false, this::fetch)).isEmpty();
        assertThat(plans.topologies()).isEmpty();
    }

    @Test
    void keepsWhatItFetchedWhenTheRouterFailsMidway() {
        ExecutionPlan a = served("a", 0);
        ExecutionPlan b = plan("b", 0);
        assertThatThrownBy(() -> plans.update(view(a, b), topology -> false, topology -> {
            if (topology.equals(b.topology())) {
                throw new IllegalStateException("router unreachable");
            }
            return fetch(topology);
        })).hasMessageContaining("unreachable");
        assertThat(plans.at(a.topology(), 0)).contains(a);
    }
}

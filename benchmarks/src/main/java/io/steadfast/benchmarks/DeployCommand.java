package io.steadfast.benchmarks;

import io.steadfast.runtime.plan.ExecutionPlan;

/** What the benchmark driver tells its child host to run. */
record DeployCommand(ExecutionPlan plan, PlacementWire placement) {
}

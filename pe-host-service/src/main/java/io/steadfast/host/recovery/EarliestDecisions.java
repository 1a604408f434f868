package io.steadfast.host.recovery;

import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.HeldDecisions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code GET /api/v1/deployments/{topology}/decisions/earliest?task=...&task=...}: the earliest run of each
 * task's decisions a host holds, for every task asked about that it holds any of (one request per peer for all the
 * tasks a host recovers, instead of one per task and peer). JSON-ready; {@code decisions} travel as base64.
 *
 * @param runs one entry per task held, in the order asked
 */
public record EarliestDecisions(List<Run> runs) {

    public EarliestDecisions {
        runs = runs == null ? List.of() : List.copyOf(runs);
    }

    /**
     * @param task         the task, {@code topology/operator#subtask} in JSON
     * @param from         the log offset of the first byte
     * @param decisions the encoded decisions
     */
    public record Run(TaskId task, long from, byte[] decisions) {
    }

    /** The runs by task; an incomplete entry is left out. */
    public Map<TaskId, HeldDecisions> byTask() {
        Map<TaskId, HeldDecisions> held = new LinkedHashMap<>();
        for (Run run : runs) {
            if (run.task() != null && run.from() >= 0 && run.decisions() != null) {
                held.put(run.task(), new HeldDecisions(run.from(), run.decisions()));
            }
        }
        return held;
    }
}

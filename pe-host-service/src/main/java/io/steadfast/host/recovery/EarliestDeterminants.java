package io.steadfast.host.recovery;

import io.steadfast.runtime.host.HeldDeterminants;
import io.steadfast.runtime.plan.TaskId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Body of {@code GET /api/v1/deployments/{topology}/determinants/earliest?task=...&task=...}: the earliest run of each
 * task's determinants a host holds, for every task asked about that it holds any of (one request per peer for all the
 * tasks a host recovers, instead of one per task and peer). JSON-ready; {@code determinants} travel as base64.
 *
 * @param runs one entry per task held, in the order asked
 */
public record EarliestDeterminants(List<Run> runs) {

    public EarliestDeterminants {
        runs = runs == null ? List.of() : List.copyOf(runs);
    }

    /**
     * @param task         the task, {@code topology/operator#subtask} in JSON
     * @param from         the log offset of the first byte
     * @param determinants the encoded determinants
     */
    public record Run(TaskId task, long from, byte[] determinants) {
    }

    /** The runs by task; an incomplete entry is left out. */
    public Map<TaskId, HeldDeterminants> byTask() {
        Map<TaskId, HeldDeterminants> held = new LinkedHashMap<>();
        for (Run run : runs) {
            if (run.task() != null && run.from() >= 0 && run.determinants() != null) {
                held.put(run.task(), new HeldDeterminants(run.from(), run.determinants()));
            }
        }
        return held;
    }
}

package io.steadfast.runtime.voting;

import io.steadfast.api.state.ValueState;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link VersionRecord}s of every version of one vote task, kept as task state (shared by all keys, snapshotted
 * with the task) under {@link VersionRecord#TASK_STATE}, as one {@link VersionRecordList}. Task thread only.
 */
final class VersionRecords {

    private final ValueState<VersionRecordList> state;
    private final int versions;

    VersionRecords(ValueState<VersionRecordList> state, int versions) {
        this.state = state;
        this.versions = versions;
    }

    VersionRecord get(int version) {
        return all().get(version);
    }

    void put(int version, VersionRecord record) {
        List<VersionRecord> records = new ArrayList<>(all());
        records.set(version, record);
        putAll(records);
    }

    /** Replaces every version's record. */
    void putAll(List<VersionRecord> records) {
        state.update(new VersionRecordList(records));
    }

    List<VersionRecord> all() {
        VersionRecordList stored = state.value();
        return (stored == null ? VersionRecordList.fresh(versions) : stored).records();
    }
}

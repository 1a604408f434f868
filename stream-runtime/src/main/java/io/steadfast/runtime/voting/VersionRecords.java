package io.steadfast.runtime.voting;

import io.steadfast.api.state.ValueState;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link VersionRecord}s of every version of one vote task, kept as task state (shared by all keys, snapshotted
 * with the task) under {@value #STATE}. Task thread only.
 */
final class VersionRecords {

    private final ValueState<Object> state;
    private final int versions;
    /** The records parsed from the state value they came from, while it is still the current one. */
    private Object parsedFrom;
    private List<VersionRecord> parsed;

    VersionRecords(ValueState<Object> state, int versions) {
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
        List<Object> wire = new ArrayList<>(versions);
        records.forEach(one -> wire.add(one.toState()));
        state.update(wire);
        parsedFrom = wire;
        parsed = List.copyOf(records);
    }

    List<VersionRecord> all() {
        Object stored = state.value();
        if (stored != null && stored == parsedFrom) {
            return parsed;
        }
        List<VersionRecord> records = new ArrayList<>(versions);
        if (stored == null) {
            for (int i = 0; i < versions; i++) {
                records.add(VersionRecord.NEW);
            }
        } else {
            records.addAll(VersionRecord.listOf(stored));
        }
        parsedFrom = stored;
        parsed = List.copyOf(records);
        return parsed;
    }
}

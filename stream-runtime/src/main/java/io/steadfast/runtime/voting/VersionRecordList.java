package io.steadfast.runtime.voting;

import com.fasterxml.jackson.annotation.JsonValue;
import io.steadfast.api.codec.CodecException;
import io.steadfast.api.codec.CodecInput;
import io.steadfast.api.codec.CodecOutput;
import io.steadfast.api.codec.ValueCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of every version of one vote task, in version order, as its task state holds them: one immutable value,
 * read as it is by every key's vote (no parsing per ballot), replaced on each change, written by a codec of its own
 * (eight numbers per version) when the task is snapshotted. Its JSON form, as hosts answer a task-state query, is
 * the list of {@link VersionRecord#toState()} lists.
 */
public final class VersionRecordList {

    /** The codec the runtime registers for this value: snapshots name it. */
    public static final ValueCodec<VersionRecordList> CODEC = new ValueCodec<>() {
        @Override
        public String name() {
            return "steadfast.version-records";
        }

        @Override
        public Class<VersionRecordList> type() {
            return VersionRecordList.class;
        }

        @Override
        public void encode(VersionRecordList value, CodecOutput out) {
            out.writeVarInt(value.records.size());
            for (VersionRecord record : value.records) {
                for (Object field : record.toState()) {
                    out.writeVarLong((Long) field);
                }
            }
        }

        @Override
        public VersionRecordList decode(CodecInput in) {
            int versions = in.readVarInt();
            if (versions < 0 || versions > VoteConfig.MAX_VERSIONS) {
                throw new CodecException("version records of " + versions + " versions; at most "
                        + VoteConfig.MAX_VERSIONS);
            }
            List<VersionRecord> records = new ArrayList<>(versions);
            for (int version = 0; version < versions; version++) {
                List<Long> fields = new ArrayList<>(VersionRecord.FIELDS);
                for (int field = 0; field < VersionRecord.FIELDS; field++) {
                    fields.add(in.readVarLong());
                }
                records.add(VersionRecord.fromState(fields));
            }
            return new VersionRecordList(records);
        }
    };

    private final List<VersionRecord> records;

    VersionRecordList(List<VersionRecord> records) {
        this.records = List.copyOf(records);
    }

    /** Fresh records for {@code versions} versions. */
    static VersionRecordList fresh(int versions) {
        List<VersionRecord> records = new ArrayList<>(versions);
        for (int i = 0; i < versions; i++) {
            records.add(VersionRecord.NEW);
        }
        return new VersionRecordList(records);
    }

    public List<VersionRecord> records() {
        return records;
    }

    @JsonValue
    List<List<Object>> toState() {
        return records.stream().map(VersionRecord::toState).toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VersionRecordList list && list.records.equals(records);
    }

    @Override
    public int hashCode() {
        return records.hashCode();
    }

    @Override
    public String toString() {
        return records.toString();
    }
}

package io.steadfast.runtime.voting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class VersionRecordListTest {

    private final VersionRecordList records = new VersionRecordList(List.of(
            VersionRecord.NEW.counted(true, false, 100),
            VersionRecord.NEW.counted(false, false, 100).excludedAt(1_700_000_000_000L),
            VersionRecord.NEW.counted(false, true, 100)));

    @Test
    void roundTripsThroughItsCodecWithNegativeFieldsIntact() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        VersionRecordList.CODEC.encode(records, out);

        VersionRecordList decoded = VersionRecordList.CODEC.decode(new ByteArrayCodecInput(out.toByteArray()));

        assertThat(decoded).isEqualTo(records);
        assertThat(decoded.records().get(0).excludedSince()).isEqualTo(-1);
        assertThat(decoded.records().get(1).excludedSince()).isEqualTo(1_700_000_000_000L);
    }

    @Test
    void readsAsTheSameRecordsFromItselfAndFromTheJsonAHostAnswersWith() {
        JsonMapper json = JsonMapper.builder().build();
        Object answered = json.readValue(json.writeValueAsString(records), Object.class);

        assertThat(VersionRecord.listOf(answered)).isEqualTo(VersionRecord.listOf(records))
                .isEqualTo(records.records());
        assertThat(VersionRecord.listOf(null)).isEmpty();
    }

    @Test
    void refusesMoreVersionsThanAnOperatorMayHave() {
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(0);
        out.writeVarInt(VoteConfig.MAX_VERSIONS + 1);

        assertThatThrownBy(() -> VersionRecordList.CODEC.decode(new ByteArrayCodecInput(out.toByteArray())))
                .isInstanceOf(CodecException.class).hasMessageContaining("at most");
    }
}

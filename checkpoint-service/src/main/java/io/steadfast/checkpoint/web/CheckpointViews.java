package io.steadfast.checkpoint.web;

import io.steadfast.checkpoint.checkpoint.CheckpointFailure;
import io.steadfast.checkpoint.checkpoint.CheckpointRecord;
import io.steadfast.checkpoint.checkpoint.CheckpointStatus;
import io.steadfast.checkpoint.checkpoint.CheckpointTiming;
import io.steadfast.checkpoint.checkpoint.TaskAck;
import io.steadfast.protocol.store.CheckpointRecordList;
import io.steadfast.protocol.store.CheckpointRecordView;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** This service's checkpoint records in the form its API answers them ({@code io.steadfast.protocol.store}). */
final class CheckpointViews {

    private CheckpointViews() {
    }

    static CheckpointRecordView of(CheckpointRecord record) {
        CheckpointTiming timing = record.timing();
        CheckpointFailure failure = record.failure();
        return new CheckpointRecordView(record.topology(), record.checkpointId(), record.status().name(),
                new CheckpointRecordView.Timing(timing.triggeredAt(), timing.completedAt(), timing.durationMillis()),
                record.sizeBytes(), new CheckpointRecordView.Tasks(record.expectedTasks(),
                        record.expectedIncarnations(), record.acks().stream().map(CheckpointViews::of).toList(),
                        record.missingAcks()),
                failure == null ? null : new CheckpointRecordView.Failure(failure.reason().name(), failure.message()));
    }

    private static CheckpointRecordView.StoredAck of(TaskAck ack) {
        return new CheckpointRecordView.StoredAck(ack.task(), ack.sizeBytes(), ack.ackedAt(), ack.syncMillis(),
                ack.asyncMillis());
    }

    /** The records of {@code topology} retention has kept, newest first, with statistics over them. */
    static CheckpointRecordList listOf(TopologyId topology, List<CheckpointRecord> newestFirst) {
        List<CheckpointRecord> completed = newestFirst.stream()
                .filter(record -> record.status() == CheckpointStatus.COMPLETED).toList();
        Map<String, Integer> failures = new TreeMap<>();
        newestFirst.stream().map(CheckpointRecord::failure).filter(Objects::nonNull)
                .forEach(failure -> failures.merge(failure.reason().name(), 1, Integer::sum));
        CheckpointRecord latest = completed.isEmpty() ? null : completed.get(0);
        CheckpointRecordList.Statistics statistics = new CheckpointRecordList.Statistics(
                new CheckpointRecordList.Counts(newestFirst.size(), count(newestFirst, CheckpointStatus.PENDING),
                        completed.size(), count(newestFirst, CheckpointStatus.FAILED)),
                latest == null ? new CheckpointRecordList.Latest(null, null, null)
                        : new CheckpointRecordList.Latest(latest.checkpointId(), latest.durationMillis(),
                                latest.sizeBytes()),
                new CheckpointRecordList.Averages(
                        round(completed.stream().mapToLong(record -> record.durationMillis() == null ? 0
                                : record.durationMillis()).average()),
                        round(completed.stream().mapToLong(CheckpointRecord::sizeBytes).average())),
                failures);
        return new CheckpointRecordList(topology, statistics, newestFirst.stream().map(CheckpointViews::of).toList());
    }

    private static int count(List<CheckpointRecord> records, CheckpointStatus status) {
        return (int) records.stream().filter(record -> record.status() == status).count();
    }

    private static @Nullable Long round(OptionalDouble average) {
        return average.isPresent() ? Math.round(average.getAsDouble()) : null;
    }
}

package io.steadfast.router.checkpoint;

import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.CheckpointSummary;
import io.steadfast.router.checkpoint.CheckpointRecordsException.Reason;
import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link CheckpointRecords} in memory, for tests and for a cluster in one JVM; lost on restart. Like the
 * checkpoint-service: creating an existing id, completing a FAILED checkpoint or failing a COMPLETED one is a
 * CONFLICT, and completion requires every expected task to have acknowledged. {@link #setAvailable} switches it
 * off to stand in for an unreachable store: every call then fails as UNAVAILABLE.
 */
public final class InMemoryCheckpointRecords implements CheckpointRecords {

    private record Key(TopologyId topology, long checkpointId) {
    }

    private record Entry(CheckpointSummary stats, List<TaskId> expected, Map<TaskId, Integer> incarnations,
                         Map<TaskId, RecordedAck> acks) {
    }

    /** An ack with when it was recorded, as the checkpoint-service keeps it. */
    private record RecordedAck(TaskAck ack, Instant at) {
    }

    private final Map<Key, Entry> records = new ConcurrentHashMap<>();
    private final Clock clock;
    private volatile boolean available = true;

    public InMemoryCheckpointRecords(Clock clock) {
        this.clock = clock;
    }

    public void setAvailable(boolean available) {
        this.available = available;
    }

    @Override
    public void create(TopologyId topology, long checkpointId, List<TaskId> tasks, Map<TaskId, Integer> incarnations,
                       Instant triggeredAt) {
        requireAvailable();
        Entry created = new Entry(new CheckpointSummary(CheckpointId.of(checkpointId), CheckpointSummary.PENDING,
                triggeredAt, null, null, 0, null, null), List.copyOf(tasks), Map.copyOf(incarnations), new ConcurrentHashMap<>());
        if (records.putIfAbsent(new Key(topology, checkpointId), created) != null) {
            throw new CheckpointRecordsException(Reason.CONFLICT, "checkpoint " + checkpointId + " of '" + topology
                    + "' exists already", null);
        }
    }

    @Override
    public void acknowledge(TopologyId topology, long checkpointId, TaskAck ack) {
        entry(topology, checkpointId).acks().put(ack.task(), new RecordedAck(ack, clock.instant()));
    }

    @Override
    public synchronized void complete(TopologyId topology, long checkpointId) {
        Entry entry = entry(topology, checkpointId);
        requireNotStatus(entry, CheckpointSummary.FAILED, topology, "complete");
        if (!entry.acks().keySet().containsAll(entry.expected())) {
            throw new CheckpointRecordsException(Reason.CONFLICT, "checkpoint " + checkpointId + " of '" + topology
                    + "' lacks acks of " + entry.expected().stream().filter(t -> !entry.acks().containsKey(t)).toList(),
                    null);
        }
        Instant now = clock.instant();
        CheckpointSummary s = entry.stats();
        long size = entry.acks().values().stream().mapToLong(recorded -> recorded.ack().sizeBytes()).sum();
        records.put(new Key(topology, checkpointId), new Entry(new CheckpointSummary(s.checkpointId(),
                CheckpointSummary.COMPLETED, s.triggeredAt(), now, Duration.between(s.triggeredAt(), now).toMillis(), size, null, null),
                entry.expected(), entry.incarnations(), entry.acks()));
    }

    @Override
    public synchronized void fail(TopologyId topology, long checkpointId, CheckpointFailureReason reason,
                                  String message, List<TaskAck> acks) {
        Entry entry = entry(topology, checkpointId);
        requireNotStatus(entry, CheckpointSummary.COMPLETED, topology, "fail");
        acks.forEach(ack -> entry.acks().put(ack.task(), new RecordedAck(ack, clock.instant())));
        CheckpointSummary s = entry.stats();
        records.put(new Key(topology, checkpointId), new Entry(new CheckpointSummary(s.checkpointId(),
                CheckpointSummary.FAILED, s.triggeredAt(), null, null, 0, reason.name(), message), entry.expected(), entry.incarnations(),
                entry.acks()));
    }

    /** The incarnation of each task the checkpoint was created expecting, as given to {@link #create}. */
    public Map<TaskId, Integer> expectedIncarnations(TopologyId topology, long checkpointId) {
        return entry(topology, checkpointId).incarnations();
    }

    @Override
    public List<CheckpointSummary> list(TopologyId topology) {
        requireAvailable();
        return records.entrySet().stream().filter(e -> e.getKey().topology().equals(topology))
                .map(e -> e.getValue().stats())
                .sorted(Comparator.comparing(CheckpointSummary::checkpointId).reversed()).toList();
    }

    @Override
    public Optional<CheckpointDetail> find(TopologyId topology, long checkpointId) {
        requireAvailable();
        Entry entry = records.get(new Key(topology, checkpointId));
        if (entry == null) {
            return Optional.empty();
        }
        Map<TaskId, CheckpointDetail.TaskAckState> acks = new LinkedHashMap<>();
        entry.acks().values().stream().sorted(Comparator.comparing(RecordedAck::at)).forEach(recorded -> {
            TaskAck ack = recorded.ack();
            acks.put(ack.task(), CheckpointDetail.TaskAckState.acked(ack.task(), recorded.at(), ack.sizeBytes(),
                    ack.syncMillis(), ack.asyncMillis()));
        });
        return Optional.of(CheckpointDetail.of(topology, entry.stats(), entry.expected(), acks));
    }

    @Override
    public OptionalLong latestCompleted(TopologyId topology) {
        return list(topology).stream().filter(CheckpointSummary::isCompleted)
                .mapToLong(s -> s.checkpointId().value()).findFirst();
    }

    @Override
    public void delete(TopologyId topology) {
        requireAvailable();
        records.keySet().removeIf(key -> key.topology().equals(topology));
    }

    private Entry entry(TopologyId topology, long checkpointId) {
        requireAvailable();
        Entry entry = records.get(new Key(topology, checkpointId));
        if (entry == null) {
            throw new CheckpointRecordsException(Reason.NOT_FOUND, "no checkpoint " + checkpointId + " of '"
                    + topology + "'", null);
        }
        return entry;
    }

    private void requireAvailable() {
        if (!available) {
            throw new CheckpointRecordsException(Reason.UNAVAILABLE, "in-memory checkpoint records are switched off",
                    null);
        }
    }

    private static void requireNotStatus(Entry entry, String status, TopologyId topology, String what) {
        if (entry.stats().status().equals(status)) {
            throw new CheckpointRecordsException(Reason.CONFLICT, "cannot " + what + " checkpoint "
                    + entry.stats().checkpointId() + " of '" + topology + "': it is " + status, null);
        }
    }
}

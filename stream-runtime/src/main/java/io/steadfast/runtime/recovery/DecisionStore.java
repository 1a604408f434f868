package io.steadfast.runtime.recovery;

import io.steadfast.api.codec.CodecException;
import io.steadfast.runtime.codec.DecisionRecord;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.dataplane.InboundFrame;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decisions of upstream tasks that arrived with this host's input, kept so that a recovered upstream
 * task can replay its decisions: per topology and task, the parts of its log seen so far, merged by offset.
 * Each part is stored as its frame arrives (the data plane's IO thread; a part held already, from a frame that
 * arrives again after a reconnect, changes nothing). Parts arrive out of order (frames of several channels), so
 * they are kept as disjoint runs until the gaps between them fill; what lies before the base a task reports
 * (truncated at a completed checkpoint) is dropped. Thread-safe.
 */
final class DecisionStore {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionStore.class);

    private record Key(TopologyId topology, int task) {
    }

    /** Disjoint runs of one task's log by start offset; guarded by its own monitor. */
    private static final class TaskLog {
        final NavigableMap<Long, byte[]> runs = new TreeMap<>();
        long base;

        synchronized void add(long from, byte[] bytes, long newBase) {
            base = Math.max(base, newBase);
            Map.Entry<Long, byte[]> holding = runs.floorEntry(from);
            if (holding != null && holding.getKey() + holding.getValue().length >= from + bytes.length) {
                // held already: its frame arrived before (resent after a reconnect)
                dropBeforeBase();
                return;
            }
            if (bytes.length > 0) {
                long start = from;
                byte[] merged = bytes;
                Map.Entry<Long, byte[]> before = runs.floorEntry(start);
                if (before != null && before.getKey() + before.getValue().length >= start) {
                    merged = join(before.getKey(), before.getValue(), start, merged);
                    start = before.getKey();
                    runs.remove(before.getKey());
                }
                Map.Entry<Long, byte[]> after;
                while ((after = runs.ceilingEntry(start)) != null && after.getKey() <= start + merged.length) {
                    merged = join(start, merged, after.getKey(), after.getValue());
                    runs.remove(after.getKey());
                }
                runs.put(start, merged);
            }
            dropBeforeBase();
        }

        private void dropBeforeBase() {
            Map.Entry<Long, byte[]> first;
            while ((first = runs.firstEntry()) != null && first.getKey() < base) {
                runs.remove(first.getKey());
                long end = first.getKey() + first.getValue().length;
                if (end > base) {
                    runs.put(base, Arrays.copyOfRange(first.getValue(), (int) (base - first.getKey()),
                            first.getValue().length));
                }
            }
        }

        synchronized Optional<byte[]> readFrom(long from) {
            Map.Entry<Long, byte[]> run = runs.floorEntry(from);
            if (run == null || run.getKey() + run.getValue().length < from) {
                return Optional.empty();
            }
            return Optional.of(Arrays.copyOfRange(run.getValue(), (int) (from - run.getKey()), run.getValue().length));
        }

        synchronized Optional<HeldDecisions> earliest() {
            Map.Entry<Long, byte[]> run = runs.firstEntry();
            return run == null ? Optional.empty() : Optional.of(new HeldDecisions(run.getKey(), run.getValue()));
        }

        /** Two overlapping or adjacent runs as one; {@code secondStart} lies within or right after the first. */
        private static byte[] join(long firstStart, byte[] first, long secondStart, byte[] second) {
            long end = Math.max(firstStart + first.length, secondStart + second.length);
            byte[] joined = Arrays.copyOf(first, (int) (end - firstStart));
            int offset = (int) (secondStart - firstStart);
            int tail = (int) (end - secondStart) - Math.max(0, first.length - offset);
            if (tail > 0) {
                System.arraycopy(second, second.length - tail, joined, joined.length - tail, tail);
            }
            return joined;
        }
    }

    private final Map<Key, TaskLog> logs = new ConcurrentHashMap<>();

    /**
     * Stores the decision records each part of an arriving frame starts with (a frame of several parts carries
     * consecutive frames of its channel, each with its own). A part whose decisions are malformed adds nothing;
     * its task fails on it ({@link io.steadfast.runtime.task.UndecodableFrameException}).
     */
    void receiveLeading(TopologyId topology, InboundFrame frame) {
        int from = 0;
        for (int part = 0; part < frame.parts(); part++) {
            int to = frame.partEnd(part);
            try {
                RecordBatchReader.leadingDecisions(frame.payload(), from, to)
                        .forEach(record -> receive(topology, record));
            } catch (CodecException e) {
                LOG.debug("Frame {} of channel {} (part {}) starts with malformed decisions: {}",
                        frame.firstSeq(), frame.channel(), part, e.getMessage());
            }
            from = to;
        }
    }

    void receive(TopologyId topology, DecisionRecord record) {
        logs.computeIfAbsent(new Key(topology, record.origin()), key -> new TaskLog())
                .add(record.from(), record.bytes(), record.base());
    }

    /** The task's decisions from {@code fromOffset} to the end of the run that holds it, if one does. */
    Optional<byte[]> read(TopologyId topology, int task, long fromOffset) {
        TaskLog log = logs.get(new Key(topology, task));
        return log == null ? Optional.empty() : log.readFrom(fromOffset);
    }

    /** The task's earliest run of decisions held here (from the base it last reported, if it is complete). */
    Optional<HeldDecisions> readEarliest(TopologyId topology, int task) {
        TaskLog log = logs.get(new Key(topology, task));
        return log == null ? Optional.empty() : log.earliest();
    }

    void forget(TopologyId topology) {
        logs.keySet().removeIf(key -> key.topology().equals(topology));
    }
}

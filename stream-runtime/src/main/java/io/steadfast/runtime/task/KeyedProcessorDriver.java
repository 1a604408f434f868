package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.PeFactory;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.ValueCodec;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.api.state.KeyedStateRegistry;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.state.KeyedTimers;
import io.steadfast.runtime.state.HeapKeyedStateBackend;
import io.steadfast.runtime.state.KeyEntry;
import io.steadfast.runtime.state.KeyedStateSnapshotCodec;
import io.steadfast.runtime.state.TaskStateBackend;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a keyed operator with S4 semantics: looks up (or creates through the factory) the PE instance of each
 * event's key, points the state handles at that key, and calls the PE. Fires event-time timers as the
 * watermark advances, and processing-time timers as the task applies readings of its processing-time clock.
 * Task thread only.
 */
public final class KeyedProcessorDriver implements OperatorDriver {

    private static final Logger LOG = LoggerFactory.getLogger(KeyedProcessorDriver.class);
    private static final int MAX_TIMER_ROUNDS = 1_000;

    private final OperatorType<?> type;
    private final Object config;
    private final OperatorInfo operator;
    private final PeFactory<Object, Object, Object> factory;
    private final HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
    private final KeyedTimers timers = new KeyedTimers();
    private final ProcessingClock clock = new ProcessingClock();
    private final TaskStateBackend taskState = new TaskStateBackend();
    private final KeyedPeContext context = new KeyedPeContext(timers, clock);
    private final KeyedStateSnapshotCodec snapshotCodec;
    private final ProcessingElement<Object, Object> sharedInstance;
    /** The one PE of an operator type made {@code withInstancePerTask()}, once the task has seen a key. */
    private ProcessingElement<Object, Object> taskInstance;
    private long watermark = Long.MIN_VALUE;

    @SuppressWarnings("unchecked")
    public KeyedProcessorDriver(OperatorType<?> type, Object config, OperatorInfo operator, ValueCodecRegistry codecs) {
        this.type = type;
        this.config = config;
        this.operator = operator;
        this.factory = (PeFactory<Object, Object, Object>) type.peFactory().orElseThrow(
                () -> new IllegalArgumentException(type + " has no PE factory"));
        this.snapshotCodec = new KeyedStateSnapshotCodec(codecs);
        this.sharedInstance = type.sharedInstance() ? factory.create(new Init("*", StatelessRegistry.INSTANCE)) : null;
    }

    public void process(Event<Object> event, EventOutput output) {
        String key = event.key();
        ProcessingElement<Object, Object> pe;
        if (sharedInstance != null) {
            pe = sharedInstance;
        } else {
            KeyEntry entry = backend.entry(key);
            if (entry == null) {
                entry = createEntry(key);
            }
            backend.setCurrent(entry);
            pe = entry.pe();
        }
        context.bind(output, key, event.eventTime());
        try {
            pe.process(event, context);
        } finally {
            backend.setCurrent(null);
        }
    }

    private KeyEntry createEntry(String key) {
        KeyEntry entry = backend.addEntry(key);
        backend.setCurrent(entry);
        if (!type.instancePerTask()) {
            entry.attach(factory.create(new Init(key, backend)));
            return entry;
        }
        if (taskInstance == null) {
            taskInstance = factory.create(new Init("*", backend));
        }
        entry.attach(taskInstance);
        return entry;
    }

    /** Advances the watermark (it never goes back) and fires the timers it passed, in order. */
    public void advanceWatermark(long newWatermark, EventOutput output) {
        if (newWatermark <= watermark) {
            return;
        }
        watermark = newWatermark;
        context.setWatermark(newWatermark);
        if (timers.size() == 0) {
            return;
        }
        fireDue(timers, newWatermark, false, output);
    }

    /** Whether the task should read the wall clock, {@code nowMillis}, into the processing-time clock now. */
    public boolean processingTimeDue(long nowMillis) {
        return clock.isDue(nowMillis);
    }

    /** Applies a reading of the processing-time clock (it never goes back) and fires the timers due by then. */
    public void advanceProcessingTime(long millis, EventOutput output) {
        if (clock.advanceTo(millis)) {
            fireDue(clock.timers(), millis, true, output);
        }
    }

    /**
     * Fires the timers due by {@code time}, in order. A timer may register another at or before it: firing goes on
     * until none is due, within a bound, so that a PE re-registering the same timestamp forever cannot hang its task.
     */
    private void fireDue(KeyedTimers domain, long time, boolean processingTime, EventOutput output) {
        List<KeyedTimers.Timer> due = domain.pollDue(time);
        for (int round = 0; !due.isEmpty(); round++) {
            for (KeyedTimers.Timer timer : due) {
                fire(timer, processingTime, output);
            }
            if (round == MAX_TIMER_ROUNDS) {
                LOG.warn("{}: timers kept registering timers at or before {} {} for {} rounds; the rest fire later",
                        this, processingTime ? "processing time" : "watermark", time, MAX_TIMER_ROUNDS);
                return;
            }
            due = domain.pollDue(time);
        }
    }

    private void fire(KeyedTimers.Timer timer, boolean processingTime, EventOutput output) {
        ProcessingElement<Object, Object> pe;
        if (sharedInstance != null) {
            pe = sharedInstance;
        } else {
            KeyEntry entry = backend.entry(timer.key());
            if (entry == null) {
                entry = createEntry(timer.key());
            }
            backend.setCurrent(entry);
            pe = entry.pe();
        }
        context.bind(output, timer.key(), timer.timestamp());
        try {
            if (processingTime) {
                pe.onProcessingTime(timer.timestamp(), context);
            } else {
                pe.onTimer(timer.timestamp(), context);
            }
        } finally {
            backend.setCurrent(null);
        }
    }

    public long watermark() {
        return watermark;
    }

    public int keyCount() {
        return backend.keyCount();
    }

    public int timerCount() {
        return timers.size();
    }

    /** The value of a task state ({@code PeInit#taskState()}), for queries. */
    public Optional<Object> queryTaskState(String stateName) {
        return taskState.read(stateName);
    }

    public Optional<Object> query(String stateName, String key) {
        return backend.read(stateName, key);
    }

    public Map<String, Object> queryAll(String stateName, int limit) {
        return backend.readAll(stateName, limit);
    }

    /**
     * The watermark, the keyed state with its event-time timers, then the processing-time clock (its reading, whether
     * a PE reads it, its timers) and the task state, if any was declared.
     */
    @Override
    public PreparedSnapshot prepareSnapshot() {
        long watermarkNow = watermark;
        KeyedStateSnapshotCodec.KeyedStateCopy copy = KeyedStateSnapshotCodec.copy(backend, timers);
        long clockNow = clock.millis();
        boolean clockRead = clock.wasRead();
        List<KeyedTimers.Timer> processingTimers = clock.timers().list();
        KeyedStateSnapshotCodec.KeyedStateCopy taskCopy = taskState.isDeclared() ? taskState.copy() : null;
        return out -> {
            out.writeVarLong(watermarkNow);
            snapshotCodec.write(copy, out);
            out.writeVarLong(clockNow);
            out.writeBoolean(clockRead);
            KeyedStateSnapshotCodec.writeTimers(processingTimers, out);
            out.writeBoolean(taskCopy != null);
            if (taskCopy != null) {
                snapshotCodec.write(taskCopy, out);
            }
        };
    }

    @Override
    public void restore(ByteArrayCodecInput in) {
        if (backend.keyCount() > 0 || timers.size() > 0) {
            throw new IllegalStateException("restore into a driver that already holds state: "
                    + backend.keyCount() + " keys of " + operator.operatorId() + "#" + operator.subtask());
        }
        watermark = in.readVarLong();
        context.setWatermark(watermark);
        snapshotCodec.read(in, backend, timers, this::createEntry);
        backend.setCurrent(null);
        clock.restore(in.readVarLong(), in.readBoolean());
        KeyedStateSnapshotCodec.readTimers(in, clock.timers());
        if (in.readBoolean()) {
            taskState.restore(snapshotCodec, in);
        }
    }

    private final class Init implements PeInit<Object> {

        private final String key;
        private final KeyedStateRegistry registry;

        Init(String key, KeyedStateRegistry registry) {
            this.key = key;
            this.registry = registry;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public Object config() {
            return config;
        }

        @Override
        public KeyedStateRegistry state() {
            return registry;
        }

        @Override
        public KeyedStateRegistry taskState() {
            return registry == StatelessRegistry.INSTANCE ? registry : taskState.registry();
        }

        @Override
        public OperatorInfo operator() {
            return operator;
        }
    }

    /** The registry of shared-instance operators, which may not declare keyed state. */
    private enum StatelessRegistry implements KeyedStateRegistry {
        INSTANCE;

        @Override
        public <T> ValueState<T> valueState(String name, ValueCodec<T> codec) {
            throw refusal(name);
        }

        @Override
        public <K, V> MapState<K, V> mapState(String name, ValueCodec<K> keyCodec, ValueCodec<V> valueCodec) {
            throw refusal(name);
        }

        private static IllegalStateException refusal(String name) {
            return new IllegalStateException("State '" + name + "' cannot be declared: the operator type shares one"
                    + " PE instance across keys (withSharedInstance()); remove that or keep no keyed state");
        }
    }

    @Override
    public String toString() {
        return "keyed driver of " + type.name() + " " + operator.operatorId() + "#" + operator.subtask();
    }
}

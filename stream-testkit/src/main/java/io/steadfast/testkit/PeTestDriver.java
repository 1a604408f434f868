package io.steadfast.testkit;

import io.steadfast.api.Event;
import io.steadfast.api.OperatorInfo;
import io.steadfast.api.PeFactory;
import io.steadfast.api.codec.ValueCodec;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.codec.RecordVisitor;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.task.KeyedProcessorDriver;
import io.steadfast.runtime.task.OperatorSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a keyed operator synchronously, in-process and deterministically, through the same driver, wire codec
 * and snapshot code a host uses: every event sent and emitted is encoded and decoded as on a channel, and
 * {@link #snapshot()} writes the bytes a checkpoint would hold.
 *
 * <pre>{@code
 * OperatorSnapshot snapshot;
 * try (var driver = PeTestDriver.of(WordCount::new).build()) {
 *     driver.send("a", "x").send("a", "x");
 *     snapshot = driver.snapshot();
 * }
 * try (var restored = PeTestDriver.of(WordCount::new).restoreFrom(snapshot).build()) {
 *     restored.send("a", "x");
 *     assertThat(restored.outputValues()).containsExactly(3L);
 * }
 * }</pre>
 *
 * <p>Not thread-safe: use it from one test thread. Event time starts at 0 and only moves when you say so.
 *
 * @param <O> the value type the PE emits
 */
public final class PeTestDriver<O> implements AutoCloseable {

    private final OperatorType<?> type;
    private final KeyedProcessorDriver driver;
    private final RecordBatchWriter writer;
    private final RecordBatchReader reader;
    private final List<Event<O>> outputs = new ArrayList<>();
    private long nextEventTime;

    private PeTestDriver(Builder<?, O, ?> builder) {
        this.type = builder.type;
        ValueCodecRegistry codecs = ValueCodecRegistry.of(builder.codecs);
        this.driver = new KeyedProcessorDriver(builder.type, builder.config, builder.operator, codecs);
        this.writer = new RecordBatchWriter(codecs, 256);
        this.reader = new RecordBatchReader(codecs);
        if (builder.snapshot != null) {
            builder.snapshot.restoreInto(type.name(), driver);
        }
    }

    /** A driver for a PE factory whose operator takes no config. */
    public static <I, O> Builder<I, O, NoConfig> of(PeFactory<I, O, NoConfig> factory) {
        return new Builder<>(OperatorType.processor("pe-under-test", NoConfig.class, factory, "test"), new NoConfig());
    }

    /** A driver for a PE factory with its config. */
    public static <I, O, C> Builder<I, O, C> of(PeFactory<I, O, C> factory, Class<C> configType, C config) {
        return new Builder<>(OperatorType.processor("pe-under-test", configType, factory, "test"), config);
    }

    /** A driver for a registered operator type, such as a built-in one, with its config. */
    public static <O, C> Builder<Object, O, C> forType(OperatorType<C> type, C config) {
        return new Builder<>(type, config);
    }

    /** Sends a value with the next event time (each send without a time advances it by 1 ms). */
    public PeTestDriver<O> send(String key, Object value) {
        return send(Event.of(key, value, nextEventTime++));
    }

    public PeTestDriver<O> send(String key, Object value, long eventTime) {
        nextEventTime = Math.max(nextEventTime, eventTime + 1);
        return send(Event.of(key, value, eventTime));
    }

    public PeTestDriver<O> send(Event<?> event) {
        writer.addEvent(event);
        int records = writer.sequencedRecords();
        reader.read(writer.drain(), records, 0, new RecordVisitor() {
            @Override
            public void onEvent(Event<Object> decoded) {
                driver.process(decoded, PeTestDriver.this::capture);
            }

            @Override
            public void onWatermark(long watermark) {
                driver.advanceWatermark(watermark, PeTestDriver.this::capture);
            }
        });
        return this;
    }

    /** Moves the watermark, firing the event-time timers it passes. */
    public PeTestDriver<O> advanceWatermark(long watermark) {
        driver.advanceWatermark(watermark, this::capture);
        return this;
    }

    @SuppressWarnings("unchecked")
    private void capture(Event<Object> emitted) {
        writer.addEvent(emitted);
        int records = writer.sequencedRecords();
        reader.read(writer.drain(), records, 0, new RecordVisitor() {
            @Override
            public void onEvent(Event<Object> decoded) {
                outputs.add((Event<O>) decoded);
            }

            @Override
            public void onWatermark(long watermark) {
                throw new AssertionError("a PE cannot emit watermarks");
            }
        });
    }

    /** Everything emitted so far, in order. */
    public List<Event<O>> outputs() {
        return List.copyOf(outputs);
    }

    public List<O> outputValues() {
        List<O> values = new ArrayList<>(outputs.size());
        outputs.forEach(event -> values.add(event.value()));
        return values;
    }

    /** The latest value emitted per key. */
    public Map<String, O> latestOutputByKey() {
        Map<String, O> latest = new java.util.LinkedHashMap<>();
        outputs.forEach(event -> latest.put(event.key(), event.value()));
        return latest;
    }

    public PeTestDriver<O> clearOutputs() {
        outputs.clear();
        return this;
    }

    /** The value of a state of one key, as a host's REST query would read it. */
    public Optional<Object> state(String stateName, String key) {
        return driver.query(stateName, key);
    }

    public int keyCount() {
        return driver.keyCount();
    }

    /** Snapshots the operator exactly as a checkpoint would. */
    public OperatorSnapshot snapshot() {
        return OperatorSnapshot.take(type.name(), driver);
    }

    @Override
    public void close() {
        outputs.clear();
    }

    /** Builds a {@link PeTestDriver}. */
    public static final class Builder<I, O, C> {

        private final OperatorType<C> type;
        private final C config;
        private OperatorInfo operator = new OperatorInfo("test", "pe-under-test", 0, 1);
        private final List<ValueCodec<?>> codecs = new ArrayList<>();
        private OperatorSnapshot snapshot;

        private Builder(OperatorType<C> type, C config) {
            this.type = type;
            this.config = Objects.requireNonNull(config, "config");
        }

        /** Which operator, subtask and parallelism the PE believes it runs in. */
        public Builder<I, O, C> operator(String operatorId, int subtask, int parallelism) {
            this.operator = new OperatorInfo("test", operatorId, subtask, parallelism);
            return this;
        }

        /** Codecs for value types beyond the built-in ones. */
        public Builder<I, O, C> codec(ValueCodec<?> codec) {
            codecs.add(codec);
            return this;
        }

        /** Starts from a snapshot taken earlier (of the same operator type). */
        public Builder<I, O, C> restoreFrom(OperatorSnapshot from) {
            this.snapshot = Objects.requireNonNull(from, "snapshot");
            return this;
        }

        public PeTestDriver<O> build() {
            return new PeTestDriver<>(this);
        }
    }
}

package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.operator.NoConfig;
import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.json.JsonMapper;

/**
 * A started task of a keyed processor with one input channel and no output, fed frames directly (no data plane):
 * for tests of what a task does with its input.
 */
record OneInputTask(StreamTask task, OperatorRegistry registry) {

    static final TaskId TASK = TaskId.parse("probe/probe#0");
    static final ChannelId INPUT = new ChannelId(new TopologyId("probe"), 1, 0);

    /** Starts a task of a processor type {@code type} whose PE {@code pe} makes. */
    static OneInputTask start(String type, Supplier<ProcessingElement<String, String>> pe) {
        OperatorRegistry registry = OperatorRegistry.of(List.of(new OperatorProvider() {
            @Override
            public List<OperatorType<?>> operatorTypes() {
                return List.of(OperatorType.processor(type, NoConfig.class, init -> pe.get(), "test"));
            }
        }));
        TaskSpec spec = new TaskSpec(TASK, type, 1, JsonMapper.builder().build().createObjectNode(),
                List.of(new InputChannel(INPUT, TaskId.parse("probe/src#0"), 0)), List.of());
        StreamTask task = new TaskFactory(registry, TaskSettings.defaults(), Clock.systemUTC()).create(spec,
                channel -> {
                    throw new AssertionError("the probe has no output channel, asked for " + channel);
                });
        task.start();
        return new OneInputTask(task, registry);
    }

    /** A frame of one event of {@code value} on the input channel, arriving now. */
    ArrivingFrame frame(String value) {
        RecordBatchWriter writer = new RecordBatchWriter(registry.codecs(), 256);
        writer.addEvent(Event.of("key", value, 1_000));
        return new ArrivingFrame(INPUT, writer.drain(), 1, System.currentTimeMillis(), System.nanoTime());
    }

    /** A frame that arrived at the given times. */
    record ArrivingFrame(ChannelId channel, byte[] payload, int records, long arrivedMillis, long arrivedNanos)
            implements InputFrame {

        @Override
        public int skip() {
            return 0;
        }

        @Override
        public void consumed() {
        }
    }
}

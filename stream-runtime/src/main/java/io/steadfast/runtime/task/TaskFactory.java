package io.steadfast.runtime.task;

import io.steadfast.api.OperatorInfo;
import io.steadfast.api.operator.OperatorRole;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.runtime.codec.RecordBatchReader;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.OutputEdge;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.recovery.DecisionForwarder;
import io.steadfast.runtime.recovery.DecisionLog;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** Builds a {@link StreamTask} from its spec: binds the config, creates the driver, wires the outputs. */
public final class TaskFactory {

    private final OperatorRegistry registry;
    private final TaskSettings settings;
    private final InstantSource clock;
    private final Executor snapshotWriter;

    /** Snapshots are encoded on the task thread: for tests and tools. */
    public TaskFactory(OperatorRegistry registry, TaskSettings settings, InstantSource clock) {
        this(registry, settings, clock, Runnable::run);
    }

    /**
     * @param snapshotWriter encodes checkpoint snapshots off the task threads and calls the listener there
     */
    public TaskFactory(OperatorRegistry registry, TaskSettings settings, InstantSource clock,
                       Executor snapshotWriter) {
        this.registry = registry;
        this.settings = settings;
        this.clock = clock;
        this.snapshotWriter = snapshotWriter;
    }

    /**
     * @param senders the sender of each output channel of the task
     * @throws IllegalArgumentException if the type is unknown or the config does not bind
     */
    public StreamTask create(TaskSpec spec, Function<ChannelId, FrameSender> senders) {
        return create(spec, senders, CheckpointListener.OfTask.NONE);
    }

    /**
     * @param senders the sender of each output channel of the task
     * @param checkpoints told of every snapshot the task takes for a checkpoint
     * @throws IllegalArgumentException if the type is unknown
     * @throws io.steadfast.api.operator.ConfigException if the config does not bind
     */
    public StreamTask create(TaskSpec spec, Function<ChannelId, FrameSender> senders,
                             CheckpointListener.OfTask checkpoints) {
        return create(spec, senders, channel -> null, checkpoints, new DecisionLog(0));
    }

    /**
     * @param senders the sender of each output channel of the task
     * @param forwarders the decisions each output channel's frames carry (null: none, the receiver runs on
     *                   the same host)
     * @param checkpoints told of every snapshot the task takes for a checkpoint
     * @param log the task's own decision log (the decisions of upstream tasks that arrive with the input are
     *            stored by the host as the frames arrive; the task skips them)
     * @throws IllegalArgumentException if the type is unknown
     * @throws io.steadfast.api.operator.ConfigException if the config does not bind
     */
    public StreamTask create(TaskSpec spec, Function<ChannelId, FrameSender> senders,
                             Function<ChannelId, DecisionForwarder> forwarders,
                             CheckpointListener.OfTask checkpoints, DecisionLog log) {
        return create(spec, driverFor(spec), senders, forwarders, checkpoints, log);
    }

    /**
     * The operator of a task, with its config bound, as {@link #create} makes it: a driver made ahead (and restored
     * from a snapshot ahead, see {@link io.steadfast.runtime.recovery.InPlaceStart#stateRestored()}) is handed to {@link #create(TaskSpec, OperatorDriver,
     * Function, Function, CheckpointListener.OfTask, DecisionLog)}.
     *
     * @throws IllegalArgumentException if the type is unknown
     * @throws io.steadfast.api.operator.ConfigException if the config does not bind
     */
    public OperatorDriver driverFor(TaskSpec spec) {
        OperatorType<?> type = registry.require(spec.type());
        Object config = registry.bindConfig(spec.type(), spec.config());
        OperatorInfo info = new OperatorInfo(spec.id().topology().value(), spec.id().operator().value(),
                spec.id().subtask(), spec.parallelism());
        return type.role() == OperatorRole.SOURCE
                ? new SourceDriver(type, config, info, clock)
                : new KeyedProcessorDriver(type, config, info, registry.codecs());
    }

    /**
     * As {@link #create(TaskSpec, Function, Function, CheckpointListener.OfTask, DecisionLog)}, around
     * {@code driver}.
     */
    public StreamTask create(TaskSpec spec, OperatorDriver driver, Function<ChannelId, FrameSender> senders,
                             Function<ChannelId, DecisionForwarder> forwarders,
                             CheckpointListener.OfTask checkpoints, DecisionLog log) {
        TaskMetrics metrics = new TaskMetrics();
        List<OutputEdgeWriter> edges = new ArrayList<>();
        for (OutputEdge edge : spec.outputs()) {
            List<ChannelWriter> writers = new ArrayList<>();
            for (ChannelId channel : edge.channels()) {
                writers.add(new ChannelWriter(senders.apply(channel), forwarders.apply(channel), registry.codecs(),
                        settings, metrics));
            }
            edges.add(new OutputEdgeWriter(edge.partitioning(), writers));
        }
        List<ChannelId> inputs = spec.inputs().stream().map(InputChannel::channel).toList();
        TaskOutput output = new TaskOutput(edges, metrics);
        VersionBallots ballots = spec.id().operator().isVersion()
                ? new VersionBallots(spec.id(), spec.inputs(), output) : null;
        return new StreamTask(spec.id(), spec.type(), driver, settings, new TaskWiring(output, inputs,
                new RecordBatchReader(registry.codecs()), metrics, checkpoints, snapshotWriter, log, ballots));
    }
}

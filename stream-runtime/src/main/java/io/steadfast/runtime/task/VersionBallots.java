package io.steadfast.runtime.task;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.InputChannel;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.voting.VersionBallot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The output of a version task of an N-version operator: gathers what its PE emits while it processes one input
 * into one ballot ({@link VersionBallot}: the input's identity, the version, the values; none, one or several),
 * sent as one event with the input's key and event time to the vote tasks. What the PE emits from an event-time
 * timer is a ballot of its own per value, named by the timer's timestamp. A version must emit under its input's
 * key, so that the vote compares like with like; one that does not fails its task, saying so. Task thread only.
 */
final class VersionBallots implements EventOutput {

    private final TaskId task;
    private final int version;
    private final EventOutput output;
    /** Per input channel, the origin of its inputs ({@link VersionBallot#origin(int, int, int)}). */
    private final Map<ChannelId, Long> origins = new HashMap<>();
    private final List<Object> values = new ArrayList<>();
    private Event<Object> input;

    VersionBallots(TaskId task, List<InputChannel> inputs, EventOutput output) {
        this.task = task;
        this.version = task.operator().versionIndex();
        this.output = output;
        // every version of this subtask reads the same inputs from the same upstream tasks, so their order by name
        // is the same in each
        List<String> upstream = inputs.stream().map(VersionBallots::upstreamName).sorted().toList();
        for (InputChannel channel : inputs) {
            origins.put(channel.channel(), VersionBallot.origin(upstream.indexOf(upstreamName(channel)),
                    task.subtask(), channel.channel().epoch()));
        }
    }

    private static String upstreamName(InputChannel channel) {
        return channel.inputIndex() + ":" + channel.from();
    }

    /** Runs the PE on one input and sends what it emitted as one ballot. */
    void process(KeyedProcessorDriver driver, Event<Object> event, ChannelId channel,
                 long seq) {
        input = event;
        values.clear();
        try {
            driver.process(event, this);
        } finally {
            input = null;
        }
        output.emit(new Event<>(event.key(), new VersionBallot(origins.get(channel), seq, version, values).toWire(),
                event.eventTime(), Headers.empty()));
    }

    @Override
    public void emit(Event<Object> event) {
        if (input == null) {
            output.emit(new Event<>(event.key(), new VersionBallot(VersionBallot.TIMER_ORIGIN, event.eventTime(),
                    version, Collections.singletonList(event.value())).toWire(), event.eventTime(),
                    Headers.empty()));
            return;
        }
        if (!event.key().equals(input.key())) {
            throw new IllegalStateException("Version task " + task + " emitted under key '" + event.key()
                    + "' for an input of key '" + input.key() + "': the versions of an N-version operator emit under"
                    + " their input's key, so that the vote compares like with like");
        }
        values.add(event.value());
    }
}

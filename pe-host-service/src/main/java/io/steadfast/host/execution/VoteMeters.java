package io.steadfast.host.execution;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.voting.VersionRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;

/**
 * The meters of the vote tasks on this host, one set per version of each vote task, tagged with {@code topology},
 * {@code operator} (the N-version operator), {@code subtask} and {@code version}: counters
 * {@code steadfast.votes.agreed}, {@code steadfast.votes.outvoted} and {@code steadfast.votes.late} (the names of the
 * votes view), gauges {@code steadfast.votes.weight} and {@code steadfast.votes.excluded} (1 while excluded). The
 * records are the vote task's task state, which only its thread may read: a scrape reads the copy fetched last and,
 * when it is over a second old, asks the task for a new one. Thread-safe.
 */
final class VoteMeters {

    private static final Duration REFRESH = Duration.ofSeconds(1);

    private final MeterRegistry registry;
    private final HostRuntime runtime;
    private final Map<TaskId, Records> records = new ConcurrentHashMap<>();
    private final Map<TaskId, List<Meter>> meters = new ConcurrentHashMap<>();

    VoteMeters(MeterRegistry registry, HostRuntime runtime) {
        this.registry = registry;
        this.runtime = runtime;
    }

    /** Registers the meters of vote task {@code task}, whose operator has {@code versions} versions. */
    void register(TaskId task, int versions, int window) {
        records.put(task, new Records(task));
        List<Meter> registered = new ArrayList<>();
        for (int version = 0; version < versions; version++) {
            int v = version;
            Tags tags = Tags.of("topology", task.topology().value(), "operator", task.operator().value(),
                    "subtask", Integer.toString(task.subtask()), "version", Integer.toString(version));
            registered.add(counter("steadfast.votes.agreed", "Ballots that agreed with their vote's result", tags, task,
                    record -> record.agreed(), v));
            registered.add(counter("steadfast.votes.outvoted", "Ballots that did not agree with their vote's result",
                    tags, task, record -> record.outvoted(), v));
            registered.add(counter("steadfast.votes.late", "Ballots that came after their vote's deadline, dropped",
                    tags, task, record -> record.late(), v));
            registered.add(Gauge.builder("steadfast.votes.weight", () -> value(task, v, record -> record.weight(window)))
                    .description("The version's weight in a weighted vote").tags(tags).register(registry));
            registered.add(Gauge.builder("steadfast.votes.excluded",
                            () -> value(task, v, record -> record.excluded() ? 1 : 0))
                    .description("1 while the vote task excludes the version").tags(tags).register(registry));
        }
        meters.put(task, registered);
    }

    void remove(TopologyId topology) {
        meters.keySet().removeIf(task -> {
            if (!task.topology().equals(topology)) {
                return false;
            }
            meters.get(task).forEach(registry::remove);
            records.remove(task);
            return true;
        });
    }

    private Meter counter(String name, String description, Tags tags, TaskId task,
                          ToDoubleFunction<VersionRecord> count, int version) {
        return FunctionCounter.builder(name, this, meters -> meters.value(task, version, count))
                .description(description).tags(tags).register(registry);
    }

    private double value(TaskId task, int version, ToDoubleFunction<VersionRecord> field) {
        Records held = records.get(task);
        if (held == null) {
            return 0;
        }
        List<VersionRecord> latest = held.latest();
        return version < latest.size() ? field.applyAsDouble(latest.get(version)) : 0;
    }

    /** The records of one vote task as last fetched from its thread. */
    private final class Records {

        private final TaskId task;
        private final AtomicBoolean fetching = new AtomicBoolean();
        private volatile List<VersionRecord> latest = List.of();
        private volatile long fetchedAtNanos = System.nanoTime() - REFRESH.toNanos();

        Records(TaskId task) {
            this.task = task;
        }

        List<VersionRecord> latest() {
            if (System.nanoTime() - fetchedAtNanos >= REFRESH.toNanos() && fetching.compareAndSet(false, true)) {
                try {
                    runtime.queryTaskState(task, VersionRecord.TASK_STATE).whenComplete((value, error) -> {
                        if (error == null) {
                            latest = VersionRecord.listOf(value.orElse(null));
                        }
                        fetchedAtNanos = System.nanoTime();
                        fetching.set(false);
                    });
                } catch (IllegalArgumentException e) {
                    fetching.set(false); // the task is gone; its meters go with its topology
                }
            }
            return latest;
        }
    }
}

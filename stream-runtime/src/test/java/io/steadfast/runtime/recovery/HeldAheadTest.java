package io.steadfast.runtime.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.OperatorInfo;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.OperatorDriver;
import io.steadfast.runtime.task.SourceDriver;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** What a host keeps of what it made ahead: each taken once, only by its checkpoint and epoch, for a while, bounded. */
class HeldAheadTest {

    private static final TaskId A = TaskId.parse("t/count#0");
    private static final TaskId B = TaskId.parse("t/count#1");

    private final AtomicLong now = new AtomicLong();
    private static final int MAX_KEPT = 256;

    private final HeldAhead<OperatorDriver> ahead = new HeldAhead<>(now::get, MAX_KEPT);

    private static OperatorDriver driver() {
        OperatorRegistry registry = OperatorRegistry.load();
        return new SourceDriver(registry.require("generator"), registry.bindConfig("generator",
                JsonMapper.builder().build().valueToTree(Map.of("count", 10, "keys", 2))), new OperatorInfo("t", "src", 0, 1), Clock.systemUTC());
    }

    @Test
    void takesEachOnceAndOnlyForItsCheckpointAndEpoch() {
        OperatorDriver restored = driver();
        ahead.put(A, 4, 1, restored);

        assertThat(ahead.take(A, 3, 1)).as("another checkpoint").isEmpty();
        assertThat(ahead.take(A, 4, 2)).as("another epoch of the plan").isEmpty();
        assertThat(ahead.holds(A, 4)).isTrue();
        assertThat(ahead.take(A, 4, 1)).containsSame(restored);
        assertThat(ahead.take(A, 4, 1)).as("taken once").isEmpty();
        assertThat(ahead.holds(A, 4)).isFalse();
    }

    @Test
    void forgetsWhatNoRecoveryTookInTimeAndWhatACancelledTopologyLeft() {
        ahead.put(A, 4, 1, driver());
        now.addAndGet(HeldAhead.KEPT_FOR.toNanos());
        ahead.put(B, 4, 1, driver());
        ahead.put(TaskId.parse("other/count#0"), 4, 1, driver());
        now.addAndGet(Duration.ofMillis(1).toNanos());

        assertThat(ahead.take(A, 4, 1)).as("older than " + HeldAhead.KEPT_FOR).isEmpty();
        ahead.forget(new TopologyId("t"));
        assertThat(ahead.holds(B, 4)).isFalse();
        assertThat(ahead.size()).isEqualTo(1);
    }

    @Test
    void keepsABoundedNumberDroppingTheOldestFirst() {
        IntStream.range(0, MAX_KEPT + 5).forEach(i ->
                ahead.put(TaskId.parse("t/count#" + i), 4, 1, driver()));

        assertThat(ahead.size()).isEqualTo(MAX_KEPT);
        assertThat(ahead.holds(TaskId.parse("t/count#4"), 4)).isFalse();
        assertThat(ahead.holds(TaskId.parse("t/count#5"), 4)).isTrue();
    }
}

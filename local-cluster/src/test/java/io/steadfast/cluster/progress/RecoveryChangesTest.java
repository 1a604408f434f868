package io.steadfast.cluster.progress;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryChangesTest {

    private static RecoveryView recovery(long id, String status) {
        return new RecoveryView(id, new TopologyId("t"), List.of(TaskId.parse("t/count#0")),
                new RecoveryView.Detection(new HostId("host-" + id), Instant.EPOCH, Instant.EPOCH, 300, null),
                new RecoveryView.Restoration(0, null, RecoveryMode.GLOBAL, null),
                new RecoveryView.Timings(null, null, null, null), new RecoveryView.Outcome(status, null, status), null);
    }

    @Test
    void namesEachRecoveryWhenFirstSeenOldestFirstAndAgainOnlyWhenItsStatusChanges() {
        RecoveryChanges changes = new RecoveryChanges();

        List<RecoveryView> first = changes.since(List.of(recovery(2, "RECOVERING"), recovery(1, "RECOVERED")));
        List<RecoveryView> unchanged = changes.since(List.of(recovery(2, "RECOVERING"), recovery(1, "RECOVERED")));
        List<RecoveryView> changed = changes.since(List.of(recovery(3, "RECOVERING"), recovery(2, "ABANDONED"),
                recovery(1, "RECOVERED")));

        assertThat(first).extracting(RecoveryView::id).containsExactly(1L, 2L);
        assertThat(unchanged).isEmpty();
        assertThat(changed).extracting(RecoveryView::id, recovery -> recovery.outcome().status()).containsExactly(
                org.assertj.core.groups.Tuple.tuple(2L, "ABANDONED"), org.assertj.core.groups.Tuple.tuple(3L, "RECOVERING"));
    }
}

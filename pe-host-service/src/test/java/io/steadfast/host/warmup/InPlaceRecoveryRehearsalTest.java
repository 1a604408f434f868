package io.steadfast.host.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.snapshot.InMemoryCheckpointing;
import io.steadfast.host.snapshot.InMemorySnapshotStore;
import io.steadfast.host.snapshot.SnapshotPrefetches;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * The recovery warm-up rehearses local recoveries through the host's own HTTP API, as the router drives them: every
 * round's snapshots are fetched ahead, its tasks prepared ahead from them and taken by the recovery, its decisions confirmed, and the recovered job
 * finishes; nothing is left running or kept, and nothing reaches the snapshot store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "steadfast.host.id=rehearsal")
@ContextConfiguration(initializers = InMemoryCheckpointing.Store.class)
@Import(InMemoryCheckpointing.Reporting.class)
class InPlaceRecoveryRehearsalTest {

    @LocalServerPort
    private int port;
    @Autowired
    private ProcessingNode node;
    @Autowired
    private WarmUpSnapshots snapshots;
    @Autowired
    private SnapshotPrefetches prefetches;
    @Autowired
    private InMemorySnapshotStore store;
    @Autowired
    private RecoveryPathWarmUp warmUp;

    @Test
    void everyRoundRecoversTheJobThroughTheHostsApiFromSnapshotsFetchedAheadAndLeavesNothingBehind()
            throws InterruptedException {
        // the host's own warm-up, started with the web server, runs the same rounds first (its registration gate may
        // open before it is done, on a slow machine)
        await().atMost(Duration.ofSeconds(120)).until(warmUp::done);
        assertThat(node.deployments()).as("the start-up warm-up left nothing running").isEmpty();

        long preparedTakenBefore = node.preparedTasksTaken();

        long resentBefore = node.dataPlaneMetrics().framesResent();
        long bundlesBefore = node.dataPlaneMetrics().bundlesSent();
        InPlaceRecoveryWarmUp rehearsal = new InPlaceRecoveryWarmUp(node, snapshots,
                URI.create("http://127.0.0.1:" + port));

        int rounds = rehearsal.run();

        assertThat(rounds).as("rounds whose prefetch, recovery and confirmation were accepted and whose job finished")
                .isEqualTo(InPlaceRecoveryWarmUp.ROUNDS);
        assertThat(node.preparedTasksTaken() - preparedTakenBefore)
                .as("every round's recovery took the 11 tasks of the rehearsal peer (every third subtask: 3 sources, 5"
                        + " counts, 3 sinks) prepared ahead, as a standby's does after a suspicion")
                .isEqualTo(InPlaceRecoveryWarmUp.ROUNDS * 11L);
        assertThat(rehearsal.decisionBytes())
                .as("the recovered counts replayed the decisions this host received with their output, as a live host")
                .isPositive();
        assertThat(node.dataPlaneMetrics().framesResent() - resentBefore)
                .as("this host's live tasks resent their logged output to the recovered tasks").isPositive();
        assertThat(node.dataPlaneMetrics().bundlesSent() - bundlesBefore)
                .as("several logged frames at a time, in bundles").isPositive();
        assertThat(rehearsal.heartbeatBytes())
                .as("the heartbeat of a host whose recovered tasks report their catch-up was written ahead").isPositive();
        assertThat(prefetches.size()).as("every snapshot fetched ahead was taken by its recovery").isZero();
        assertThat(node.deployments()).isEmpty();
        assertThat(node.taskReports()).isEmpty();
        assertThat(snapshots.of(InPlaceRecoveryWarmUp.TOPOLOGY)).isEmpty();
        assertThat(store.size()).as("no snapshot of the warm-up reached the snapshot store").isZero();
    }
}

package io.steadfast.runtime.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.api.Event;
import io.steadfast.runtime.codec.DecisionRecord;
import io.steadfast.runtime.codec.RecordBatchWriter;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import io.steadfast.runtime.dataplane.InboundFrame;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Parts of one task's decision log, arriving out of order and overlapping, merge into one run by offset. */
class DecisionStoreTest {

    private static final TopologyId TOPOLOGY = new TopologyId("store");
    private final DecisionStore store = new DecisionStore();
    private final byte[] log = new byte[100];

    DecisionStoreTest() {
        for (int i = 0; i < log.length; i++) {
            log[i] = (byte) i;
        }
    }

    private void receive(long base, int from, int to) {
        store.receive(TOPOLOGY, new DecisionRecord(7, base, from, Arrays.copyOfRange(log, from, to)));
    }

    @Test
    void mergesPartsThatArriveOutOfOrderAndOverlap() {
        receive(0, 60, 100);
        receive(0, 10, 40);
        assertThat(store.read(TOPOLOGY, 7, 10)).hasValueSatisfying(bytes -> assertThat(bytes).hasSize(30));
        assertThat(store.read(TOPOLOGY, 7, 50)).as("in the gap").isEmpty();

        receive(0, 30, 70);

        assertThat(store.read(TOPOLOGY, 7, 10)).hasValueSatisfying(bytes ->
                assertThat(bytes).containsExactly(Arrays.copyOfRange(log, 10, 100)));
        assertThat(store.read(TOPOLOGY, 7, 100)).hasValueSatisfying(bytes -> assertThat(bytes).isEmpty());
        assertThat(store.read(TOPOLOGY, 8, 10)).as("another task").isEmpty();
    }

    /** A frame of several parts (consecutive frames sent together): each part starts with its own decisions. */
    @Test
    void storesTheDecisionsEveryPartOfAnArrivingFrameStartsWith() {
        RecordBatchWriter writer = new RecordBatchWriter(ValueCodecRegistry.builtIn(), 16);
        writer.addDecisions(7, 0, 10, Arrays.copyOfRange(log, 10, 30));
        writer.addEvent(Event.of("a", 1L, 1));
        byte[] first = writer.drain();
        writer.addEvent(Event.of("b", 2L, 2));
        byte[] second = writer.drain();
        writer.addDecisions(7, 0, 30, Arrays.copyOfRange(log, 30, 45));
        writer.addEvent(Event.of("c", 3L, 3));
        byte[] third = writer.drain();
        byte[] joined = new byte[first.length + second.length + third.length];
        System.arraycopy(first, 0, joined, 0, first.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        System.arraycopy(third, 0, joined, first.length + second.length, third.length);
        int[] ends = {first.length, first.length + second.length, joined.length};

        store.receiveLeading(TOPOLOGY, new InboundFrame() {
            @Override
            public ChannelId channel() {
                return new ChannelId(TOPOLOGY, 0);
            }

            @Override
            public long firstSeq() {
                return 1;
            }

            @Override
            public int eventCount() {
                return 3;
            }

            @Override
            public byte[] payload() {
                return joined;
            }

            @Override
            public int eventsToSkip() {
                return 0;
            }

            @Override
            public int parts() {
                return ends.length;
            }

            @Override
            public int partEnd(int part) {
                return ends[part];
            }

            @Override
            public void consumed() {
            }
        });

        assertThat(store.read(TOPOLOGY, 7, 10)).as("the first part's and the third's, one run")
                .hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(Arrays.copyOfRange(log, 10, 45)));
    }

    @Test
    void dropsWhatLiesBeforeTheBaseTheTaskReports() {
        receive(0, 0, 50);
        receive(20, 50, 60);

        assertThat(store.read(TOPOLOGY, 7, 10)).isEmpty();
        assertThat(store.read(TOPOLOGY, 7, 20)).hasValueSatisfying(bytes ->
                assertThat(bytes).containsExactly(Arrays.copyOfRange(log, 20, 60)));
    }

    @Test
    void forgetsATopology() {
        receive(0, 0, 50);
        store.forget(TOPOLOGY);

        assertThat(store.read(TOPOLOGY, 7, 0)).isEmpty();
    }

    @Test
    void handsOutTheEarliestRunHeldWithItsOffsetForACollectorThatDoesNotKnowItsOffsetYet() {
        assertThat(store.readEarliest(TOPOLOGY, 7)).isEmpty();
        receive(20, 60, 100);
        receive(20, 10, 40); // partly before the base: kept from 20

        HeldDecisions earliest = store.readEarliest(TOPOLOGY, 7).orElseThrow();
        assertThat(earliest.from()).isEqualTo(20);
        assertThat(earliest.bytes()).containsExactly(Arrays.copyOfRange(log, 20, 40));
        assertThat(earliest.after(30)).hasValueSatisfying(bytes ->
                assertThat(bytes).containsExactly(Arrays.copyOfRange(log, 30, 40)));
        assertThat(earliest.after(40)).hasValueSatisfying(bytes -> assertThat(bytes).isEmpty());
        assertThat(earliest.after(19)).as("before the run").isEmpty();
        assertThat(earliest.after(41)).as("after the run").isEmpty();
    }

    @Test
    void aPartHeldAlreadyChangesNothingButTheBase() {
        receive(0, 10, 60); // stored when its frame arrived
        receive(0, 20, 40); // and again, resent after a reconnect

        assertThat(store.readEarliest(TOPOLOGY, 7)).hasValueSatisfying(run -> {
            assertThat(run.from()).isEqualTo(10);
            assertThat(run.bytes()).containsExactly(Arrays.copyOfRange(log, 10, 60));
        });

        receive(30, 30, 40); // held too, with a newer base: what lies before it goes
        assertThat(store.readEarliest(TOPOLOGY, 7)).hasValueSatisfying(run -> {
            assertThat(run.from()).isEqualTo(30);
            assertThat(run.bytes()).containsExactly(Arrays.copyOfRange(log, 30, 60));
        });
    }
}

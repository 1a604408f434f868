package io.steadfast.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarrierAlignerTest {

    private static final TopologyId TOPOLOGY = new TopologyId("t");
    private final ChannelId a = new ChannelId(TOPOLOGY, 0);
    private final ChannelId b = new ChannelId(TOPOLOGY, 1);
    private final ChannelId c = new ChannelId(TOPOLOGY, 2);
    private final BarrierAligner aligner = new BarrierAligner(List.of(a, b, c));

    private static BarrierAligner.HeldInput input(String name) {
        return new BarrierAligner.HeldInput(new NamedFrame(name));
    }

    @Test
    void blocksEachChannelAtItsBarrierUntilEveryChannelHasDeliveredIt() {
        assertThat(aligner.onBarrier(a, 1)).isEqualTo(BarrierAligner.Outcome.WAITING);
        assertThat(aligner.isBlocked(a)).isTrue();
        assertThat(aligner.isBlocked(b)).isFalse();
        assertThat(aligner.onBarrier(b, 1)).isEqualTo(BarrierAligner.Outcome.WAITING);

        assertThat(aligner.onBarrier(c, 1)).isEqualTo(BarrierAligner.Outcome.ALIGNED);
    }

    @Test
    void releasesHeldInputChannelByChannelInArrivalOrderAndUnblocks() {
        aligner.onBarrier(a, 1);
        aligner.hold(a, input("a2"));
        aligner.holdFirst(a, input("a1-rest"));
        aligner.onBarrier(b, 1);
        aligner.hold(b, input("b1"));
        aligner.onBarrier(c, 1);

        List<BarrierAligner.HeldInput> released = aligner.release();

        assertThat(released).extracting(held -> ((NamedFrame) held.frame).name).containsExactly("a1-rest", "a2", "b1");
        assertThat(aligner.isBlocked(a)).isFalse();
        assertThat(aligner.isBlocked(b)).isFalse();
        assertThat(aligner.aligningCheckpoint()).isEqualTo(-1);
    }

    @Test
    void anEndedChannelNoLongerHoldsUpAlignment() {
        aligner.onBarrier(a, 4);
        aligner.onBarrier(b, 4);

        assertThat(aligner.onEnded(c)).isTrue();
        aligner.release();
        assertThat(aligner.onBarrier(a, 5)).isEqualTo(BarrierAligner.Outcome.WAITING);
        assertThat(aligner.onBarrier(b, 5)).isEqualTo(BarrierAligner.Outcome.ALIGNED);
    }

    @Test
    void aNewerBarrierSubsumesTheAlignmentInProgressAndHandsBackItsHeldInput() {
        aligner.onBarrier(a, 2);
        BarrierAligner.HeldInput held = input("a-after-2");
        aligner.hold(a, held);

        assertThat(aligner.onBarrier(b, 3)).isEqualTo(BarrierAligner.Outcome.WAITING);

        assertThat(aligner.takeAbandoned()).containsExactly(held);
        assertThat(aligner.takeAbandoned()).isEmpty();
        assertThat(aligner.isBlocked(a)).as("checkpoint 2 can never complete here").isFalse();
        assertThat(aligner.isBlocked(b)).isTrue();
        assertThat(aligner.aligningCheckpoint()).isEqualTo(3);
    }

    @Test
    void ignoresBarriersOfOlderCheckpointsWithoutBlocking() {
        aligner.onBarrier(a, 3);

        assertThat(aligner.onBarrier(b, 2)).isEqualTo(BarrierAligner.Outcome.OBSOLETE);
        assertThat(aligner.isBlocked(b)).isFalse();
        aligner.onBarrier(b, 3);
        assertThat(aligner.onBarrier(c, 3)).isEqualTo(BarrierAligner.Outcome.ALIGNED);
        aligner.release();

        assertThat(aligner.onBarrier(a, 3)).as("already aligned").isEqualTo(BarrierAligner.Outcome.OBSOLETE);
        assertThat(aligner.isBlocked(a)).isFalse();
    }

    private static final class NamedFrame implements InputFrame {
        final String name;

        NamedFrame(String name) {
            this.name = name;
        }

        @Override
        public ChannelId channel() {
            return null;
        }

        @Override
        public byte[] payload() {
            return new byte[0];
        }

        @Override
        public int records() {
            return 0;
        }

        @Override
        public int skip() {
            return 0;
        }

        @Override
        public void consumed() {
        }

        @Override
        public long arrivedMillis() {
            return 0;
        }

        @Override
        public long arrivedNanos() {
            return 0;
        }
    }
}

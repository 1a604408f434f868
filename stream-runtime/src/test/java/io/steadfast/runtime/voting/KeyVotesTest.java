package io.steadfast.runtime.voting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.runtime.codec.ByteArrayCodecInput;
import io.steadfast.runtime.codec.ByteArrayCodecOutput;
import io.steadfast.runtime.codec.ValueCodecRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyVotesTest {

    private static final long ORIGIN = VersionBallot.origin(0, 1, 2);
    private static final long OTHER = VersionBallot.origin(1, 1, 2);

    @Test
    void aSnapshotRestoresTheVotesTheTimerAndWhatWasDecidedThroughTheValueCodecs() {
        KeyVotes votes = KeyVotes.of(null, 3)
                .withOpened(PendingVote.open(ORIGIN, 7, 100, 5_000, 3).with(0, List.of(1.5)).with(2, List.of()))
                .withOpened(PendingVote.open(OTHER, 3, 101, 5_001, 3).with(1, List.of("a", "b")));
        votes = votes.withVote(0, votes.vote(0).decidedAs(List.of(1.5))).withDecided(ORIGIN, 7).withArmedTimer(5_001);

        Object restored = roundTrip(votes);

        assertThat(restored).as("decoded as a plain list").isNotInstanceOf(KeyVotes.class).isEqualTo(votes);
        KeyVotes back = KeyVotes.of(restored, 3);
        assertThat(back).isEqualTo(votes);
        assertThat(back.armedTimer()).isEqualTo(5_001);
        assertThat(back.decidedThrough(ORIGIN)).isEqualTo(7);
        assertThat(back.decidedThrough(OTHER)).isEqualTo(KeyVotes.NONE_DECIDED);
        assertThat(back.indexOf(OTHER, 3)).isEqualTo(1);
        assertThat(back.vote(0).result()).containsExactly(1.5);
        assertThat(back.vote(0).ballotOf(2)).isEmpty();
        assertThat(back.vote(0).hasVoted(1)).isFalse();
        assertThat(back.vote(1).ballotOf(1)).containsExactly("a", "b");
        assertThat(back.oldestUndecided(OTHER)).isEqualTo(1);
        assertThat(back.oldestUndecided(ORIGIN)).as("its one vote is decided").isEqualTo(-1);
        assertThat(back.earliestDeadline()).isEqualTo(5_001);
    }

    @Test
    void votesOfOneOriginAreFoundOldestFirstAndDecidedVotesExpireAfterTheHorizon() {
        KeyVotes votes = KeyVotes.of(null, 2)
                .withOpened(PendingVote.open(ORIGIN, 1, 0, 1_000, 2))
                .withOpened(PendingVote.open(OTHER, 9, 0, 1_100, 2))
                .withOpened(PendingVote.open(ORIGIN, 2, 0, 1_200, 2));
        assertThat(votes.undecidedOrigins()).containsExactly(ORIGIN, OTHER);
        votes = votes.withVote(0, votes.vote(0).decidedAs(List.of()));
        assertThat(votes.oldestUndecided(ORIGIN)).isEqualTo(2);
        assertThat(votes.earliestDeadline()).isEqualTo(1_100);

        assertThat(votes.withoutExpired(1_999, 1_000).voteCount()).isEqualTo(3);
        KeyVotes expired = votes.withoutExpired(2_000, 1_000);
        assertThat(expired.voteCount()).as("the decided vote's horizon passed; undecided ones stay").isEqualTo(2);
        assertThat(expired.indexOf(ORIGIN, 1)).isEqualTo(-1);
        assertThat(expired.without(0).indexOf(ORIGIN, 2)).isZero();
    }

    @Test
    void stateThatIsNotTheVotesOfAKeyIsRefusedSayingWhatItExpects() {
        assertThatThrownBy(() -> KeyVotes.of(List.of(3L, "x"), 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not the votes of a key");
        assertThatThrownBy(() -> KeyVotes.of(List.of(3L, 0L, 0L, 1L), 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not the votes of a key");
        KeyVotes ofTwo = KeyVotes.of(null, 2).withOpened(PendingVote.open(ORIGIN, 1, 0, 1, 2));
        assertThatThrownBy(() -> KeyVotes.of(roundTrip(ofTwo), 3)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("votes of 2 versions, its operator has 3");
    }

    @Test
    void anOriginNamesTheUpstreamPlaceTheSubtaskAndTheEpochApart() {
        assertThat(VersionBallot.origin(0, 1, 0)).isNotEqualTo(VersionBallot.origin(1, 0, 0))
                .isNotEqualTo(VersionBallot.origin(0, 0, 1)).isNotEqualTo(VersionBallot.TIMER_ORIGIN);
        assertThatThrownBy(() -> VersionBallot.origin(1 << 20, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("upstream place and a subtask in 0..1048575");
    }

    private static Object roundTrip(Object value) {
        ValueCodecRegistry codecs = ValueCodecRegistry.builtIn();
        ByteArrayCodecOutput out = new ByteArrayCodecOutput(64);
        codecs.write(value, out);
        return codecs.read(new ByteArrayCodecInput(out.toByteArray()));
    }
}

package io.steadfast.router.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.router.EmbeddedMongo;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two routers elect a leader through a lease in MongoDB (the embedded server over TCP), on a manual monotonic clock:
 * each step below is one look at the lease, as the election thread takes it every retry period.
 */
class LeaderElectionTest {

    private static final LeaderElectionProperties SETTINGS = new LeaderElectionProperties("store", "steadfast-router",
            Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500), null, null);

    private final EmbeddedMongo mongo = EmbeddedMongo.start();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> lost = new ArrayList<>();
    private final FlakyStore storeOfA = new FlakyStore(store());
    private final LeaderElection a = election("http://127.0.0.1:8080", storeOfA);
    private final LeaderElection b = election("http://127.0.0.1:8085", store());

    @AfterEach
    void closeMongo() {
        mongo.close();
    }

    @Test
    void theFirstRouterToLookTakesTheLeaseInEpochOne() {
        a.lookAtLease();
        b.lookAtLease();

        assertThat(a.isLeading()).isTrue();
        assertThat(a.epoch()).isEqualTo(1);
        assertThat(b.isLeading()).isFalse();
        assertThat(b.leaderUrl()).contains(URI.create("http://127.0.0.1:8080"));
    }

    @Test
    void aStandbyWaitsAsLongAsTheLeaderRenews() {
        a.lookAtLease();
        for (int i = 0; i < 40; i++) {
            advance(Duration.ofMillis(500));
            a.lookAtLease();
            b.lookAtLease();
        }

        assertThat(a.isLeading()).isTrue();
        assertThat(b.isLeading()).isFalse();
    }

    @Test
    void aStandbyTakesOverInTheNextEpochOnceTheLeaseWentUnrenewedForItsDuration() {
        a.lookAtLease();
        b.lookAtLease(); // sees a's lease
        storeOfA.failing = true;
        advance(Duration.ofMillis(3_999));
        a.lookAtLease();
        b.lookAtLease();
        assertThat(b.isLeading()).isFalse();

        advance(Duration.ofMillis(1));
        b.lookAtLease();

        assertThat(b.isLeading()).isTrue();
        assertThat(b.epoch()).isEqualTo(2);
    }

    @Test
    void aLeaderThatCannotRenewStopsAtItsRenewDeadlineBeforeAnyoneTakesOver() {
        a.lookAtLease();
        b.lookAtLease();
        storeOfA.failing = true;

        advance(Duration.ofMillis(2_999));
        a.checkRenewDeadline();
        assertThat(a.isLeading()).isTrue();
        assertThat(lost).isEmpty();

        advance(Duration.ofMillis(1));
        a.checkRenewDeadline();
        b.lookAtLease();
        assertThat(a.isLeading()).isFalse();
        assertThat(lost).hasSize(1).first().asString().contains("no renewal");
        assertThat(b.isLeading()).as("the lease stays a second longer than the leader acts").isFalse();
    }

    @Test
    void aDeposedLeaderThatRunsAgainStopsAtItsNextLook() {
        a.lookAtLease();
        b.lookAtLease();
        advance(Duration.ofSeconds(5)); // a frozen: it neither renews nor checks its deadline
        b.lookAtLease();
        assertThat(b.isLeading()).isTrue();

        a.lookAtLease();

        assertThat(a.isLeading()).isFalse();
        assertThat(lost).hasSize(1).first().asString().contains("another router");
    }

    @Test
    void aLeaseTakenAfreshAfterItWasLostStartsAboveEveryEarlierEpoch() {
        LeaderElection late = new LeaderElection(store(), URI.create("http://127.0.0.1:8090"), SETTINGS, nanos::get,
                Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC), lost::add);
        a.lookAtLease();
        assertThat(a.epoch()).isEqualTo(1);
        mongo.database("steadfast-router").getCollection(MongoLeaseStore.COLLECTION).drop(); // the lease is lost

        late.lookAtLease();

        assertThat(late.isLeading()).isTrue();
        assertThat(late.epoch()).as("from the clock, not from 1, which hosts that saw epoch 1 would refuse")
                .isEqualTo(1_000_000);
    }

    @Test
    void twoRoutersNeverLeadAtOnceWhateverTheyMissAndWhenever() {
        int takeovers = 0;
        for (long seed = 0; seed < 100; seed++) {
            Random random = new Random(seed);
            try (EmbeddedMongo own = EmbeddedMongo.start()) {
                FlakyStore first = new FlakyStore(MongoLeaseStore.connect(own.uri("r"), "r", "lease",
                        Duration.ofSeconds(2)));
                FlakyStore second = new FlakyStore(MongoLeaseStore.connect(own.uri("r"), "r", "lease",
                        Duration.ofSeconds(2)));
                List<LeaderElection> routers = List.of(election("http://127.0.0.1:1", first),
                        election("http://127.0.0.1:2", second));
                List<FlakyStore> stores = List.of(first, second);
                int[] cutOffFor = new int[2];
                int[] frozenFor = new int[2];
                for (int step = 0; step < 400; step++) {
                    advance(Duration.ofMillis(50 + random.nextInt(500)));
                    for (int r = 0; r < 2; r++) {
                        // now and then a router is cut off from the store, or frozen, for up to ~8 s
                        if (cutOffFor[r] == 0 && frozenFor[r] == 0 && random.nextInt(20) == 0) {
                            (random.nextBoolean() ? cutOffFor : frozenFor)[r] = 1 + random.nextInt(30);
                        }
                        stores.get(r).failing = cutOffFor[r] > 0;
                        cutOffFor[r] = Math.max(0, cutOffFor[r] - 1);
                        if (frozenFor[r] > 0) {
                            frozenFor[r]--;
                            continue; // no look at all
                        }
                        routers.get(r).checkRenewDeadline();
                        long before = routers.get(r).epoch();
                        routers.get(r).lookAtLease();
                        takeovers += routers.get(r).epoch() > before ? 1 : 0;
                    }
                    assertThat(routers.get(0).isLeading() && routers.get(1).isLeading())
                            .as("seed %d step %d: both lead", seed, step).isFalse();
                }
            }
        }
        assertThat(takeovers).as("leadership moved between the routers, or the test shows nothing").isGreaterThan(300);
    }

    private void advance(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    private MongoLeaseStore store() {
        return MongoLeaseStore.connect(mongo.uri("steadfast-router"), "steadfast-router", "steadfast-router",
                Duration.ofSeconds(2));
    }

    private LeaderElection election(String url, LeaseStore store) {
        return new LeaderElection(store, URI.create(url), SETTINGS, nanos::get, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), lost::add);
    }

    /** A store this router cannot reach while {@code failing}: a partition, or a MongoDB that does not answer. */
    private static final class FlakyStore implements LeaseStore {

        private final LeaseStore store;
        private volatile boolean failing;

        FlakyStore(LeaseStore store) {
            this.store = store;
        }

        @Override
        public Optional<StoredLease> read() {
            fail();
            return store.read();
        }

        @Override
        public boolean replace(Optional<StoredLease> expected, LeaseRecord next) {
            fail();
            return store.replace(expected, next);
        }

        private void fail() {
            if (failing) {
                throw new IllegalStateException("store unreachable");
            }
        }

        @Override
        public String describe() {
            return store.describe();
        }
    }
}

package io.steadfast.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.runtime.state.KeyedTimers.Timer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedTimersTest {

    private final KeyedTimers timers = new KeyedTimers();

    @Test
    void firesByTimestampThenRegistrationOrder() {
        timers.register(20, "b");
        timers.register(10, "z");
        timers.register(20, "a");
        timers.register(10, "y");

        List<Timer> due = timers.pollDue(100);

        assertThat(due).containsExactly(new Timer(10, "z"), new Timer(10, "y"), new Timer(20, "b"),
                new Timer(20, "a"));
        assertThat(timers.size()).isZero();
    }

    @Test
    void firesOnlyTimersAtOrBeforeTheWatermark() {
        timers.register(5, "a");
        timers.register(6, "a");
        timers.register(7, "a");

        List<Timer> due = timers.pollDue(6);

        assertThat(due).containsExactly(new Timer(5, "a"), new Timer(6, "a"));
        assertThat(timers.size()).isEqualTo(1);
        assertThat(timers.pollDue(6)).isEmpty();
        assertThat(timers.pollDue(7)).containsExactly(new Timer(7, "a"));
    }

    @Test
    void keepsOneTimerPerTimestampAndKey() {
        timers.register(5, "a");
        timers.register(5, "a");
        timers.register(5, "b");

        assertThat(timers.size()).isEqualTo(2);
        assertThat(timers.pollDue(5)).containsExactly(new Timer(5, "a"), new Timer(5, "b"));
    }

    @Test
    void deletesATimerAndIgnoresUnknownOnes() {
        timers.register(5, "a");
        timers.register(5, "b");
        timers.register(6, "a");

        timers.delete(5, "a");
        timers.delete(6, "b");
        timers.delete(99, "a");

        assertThat(timers.size()).isEqualTo(2);
        assertThat(timers.pollDue(Long.MAX_VALUE)).containsExactly(new Timer(5, "b"), new Timer(6, "a"));
    }

    @Test
    void listsAllTimersInFiringOrderWithoutRemovingThem() {
        timers.register(Long.MIN_VALUE, "m");
        timers.register(3, "x");
        timers.register(-1, "y");

        List<Timer> all = new ArrayList<>();
        timers.iterator().forEachRemaining(all::add);

        assertThat(all).containsExactly(new Timer(Long.MIN_VALUE, "m"), new Timer(-1, "y"), new Timer(3, "x"));
        assertThat(timers.size()).isEqualTo(3);
    }

    @Test
    void clearsEverything() {
        timers.register(1, "a");

        timers.clear();

        assertThat(timers.size()).isZero();
        assertThat(timers.pollDue(Long.MAX_VALUE)).isEmpty();
    }
}

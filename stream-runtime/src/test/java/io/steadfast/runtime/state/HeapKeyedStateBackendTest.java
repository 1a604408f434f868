package io.steadfast.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.steadfast.api.codec.Codecs;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapKeyedStateBackendTest {

    private final HeapKeyedStateBackend backend = new HeapKeyedStateBackend();
    private final KeyEntry a = backend.addEntry("a");
    private final KeyEntry b = backend.addEntry("b");

    @Test
    void keepsOneValuePerKey() {
        ValueState<Long> count = backend.valueState("count", Codecs.LONG);

        backend.setCurrent(a);
        count.update(1L);
        backend.setCurrent(b);
        count.update(2L);
        backend.setCurrent(a);
        long seenByA = count.value();

        assertThat(seenByA).isEqualTo(1L);
        assertThat(backend.read("count", "a")).contains(1L);
        assertThat(backend.read("count", "b")).contains(2L);
    }

    @Test
    void treatsUpdateWithNullAsClear() {
        ValueState<String> name = backend.valueState("name", Codecs.STRING);
        backend.setCurrent(a);
        name.update("x");

        name.update(null);

        assertThat(name.value()).isNull();
        assertThat(name.valueOr("fallback")).isEqualTo("fallback");
        assertThat(backend.read("name", "a")).isEmpty();
        assertThat(a.hasState()).isFalse();
    }

    @Test
    void keepsOneMapPerKey() {
        MapState<String, Long> sums = backend.mapState("sums", Codecs.STRING, Codecs.LONG);

        backend.setCurrent(a);
        sums.put("x", 1L);
        sums.put("y", 2L);
        backend.setCurrent(b);
        sums.put("x", 10L);
        boolean bSeesY = sums.contains("y");
        backend.setCurrent(a);

        assertThat(bSeesY).isFalse();
        assertThat(sums.get("x")).isEqualTo(1L);
        assertThat(sums.size()).isEqualTo(2);
        assertThat(sums.entries()).containsExactly(Map.entry("x", 1L), Map.entry("y", 2L));
        assertThat(backend.read("sums", "b")).contains(Map.of("x", 10L));
    }

    @Test
    void dropsAKeysMapWhenItsLastEntryIsRemoved() {
        MapState<String, Long> sums = backend.mapState("sums", Codecs.STRING, Codecs.LONG);
        backend.setCurrent(a);
        sums.put("x", 1L);

        sums.remove("x");
        sums.remove("never-there");

        assertThat(sums.entries()).isEmpty();
        assertThat(sums.get("x")).isNull();
        assertThat(a.hasState()).isFalse();
    }

    @Test
    void refusesNullMapKeysAndValuesNamingTheState() {
        MapState<String, Long> sums = backend.mapState("sums", Codecs.STRING, Codecs.LONG);
        backend.setCurrent(a);

        assertThatThrownBy(() -> sums.put("x", null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("map state 'sums'");
        assertThatThrownBy(() -> sums.put(null, 1L))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("map state 'sums'");
    }

    @Test
    void returnsACopyOfAMapForQueries() {
        MapState<String, Long> sums = backend.mapState("sums", Codecs.STRING, Codecs.LONG);
        backend.setCurrent(a);
        sums.put("x", 1L);

        @SuppressWarnings("unchecked")
        Map<String, Long> read = (Map<String, Long>) backend.read("sums", "a").orElseThrow();
        read.put("y", 2L);

        assertThat(sums.entries()).containsOnlyKeys("x");
    }

    @Test
    void readsAllKeysOfAStateSortedAndLimited() {
        ValueState<Long> count = backend.valueState("count", Codecs.LONG);
        backend.setCurrent(b);
        count.update(2L);
        backend.setCurrent(a);
        count.update(1L);
        backend.setCurrent(backend.addEntry("c"));
        count.update(3L);

        assertThat(backend.readAll("count", 2)).containsExactly(Map.entry("a", 1L), Map.entry("b", 2L));
        assertThat(backend.readAll("unknown", 10)).isEmpty();
    }

    @Test
    void returnsTheSameHandleForTheSameName() {
        ValueState<Long> first = backend.valueState("count", Codecs.LONG);
        MapState<String, Long> firstMap = backend.mapState("m", Codecs.STRING, Codecs.LONG);

        assertThat(backend.valueState("count", Codecs.LONG)).isSameAs(first);
        assertThat(backend.mapState("m", Codecs.STRING, Codecs.LONG)).isSameAs(firstMap);
        assertThat(backend.descriptors()).extracting(StateDescriptor::name).containsExactly("count", "m");
    }

    @Test
    void refusesToRedeclareAStateWithAnotherCodecNamingBoth() {
        backend.valueState("count", Codecs.LONG);

        assertThatThrownBy(() -> backend.valueState("count", Codecs.INT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("State 'count'")
                .hasMessageContaining("value state with codec 'long'")
                .hasMessageContaining("value state with codec 'int'");
    }

    @Test
    void refusesToRedeclareAStateAsAnotherKindNamingBoth() {
        backend.mapState("sums", Codecs.LONG, Codecs.ANY);

        assertThatThrownBy(() -> backend.valueState("sums", Codecs.ANY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("map state with codecs 'long' -> 'any'")
                .hasMessageContaining("value state with codec 'any'");
        assertThatThrownBy(() -> backend.mapState("sums", Codecs.STRING, Codecs.ANY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("map state with codecs 'string' -> 'any'");
    }

    @Test
    void refusesStateUseOutsideAKey() {
        ValueState<Long> count = backend.valueState("count", Codecs.LONG);
        MapState<String, Long> sums = backend.mapState("sums", Codecs.STRING, Codecs.LONG);

        assertThatThrownBy(count::value)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside process() or onTimer()");
        assertThatThrownBy(() -> sums.put("x", 1L))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside process() or onTimer()");
    }

    @Test
    void refusesASecondEntryForAKey() {
        assertThatThrownBy(() -> backend.addEntry("a"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("key 'a'");
    }
}

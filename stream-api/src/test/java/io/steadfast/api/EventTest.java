package io.steadfast.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventTest {

    @Test
    void copiesWithOneFieldChangedLeavingTheOriginalAlone() {
        Event<String> original = Event.of("k", "v", 5);

        Event<String> copy = original.withKey("k2").withEventTime(7).withHeader("h", "1");
        Event<Integer> retyped = original.withValue(3);

        assertThat(original).isEqualTo(new Event<>("k", "v", 5, Headers.empty()));
        assertThat(copy).isEqualTo(new Event<>("k2", "v", 7, Headers.of(Map.of("h", "1"))));
        assertThat(retyped.value()).isEqualTo(3);
    }

    @Test
    void allowsANullValueButNotANullKeyOrHeaders() {
        Event<Object> tombstone = Event.of("k", null, 1);

        assertThat(tombstone.value()).isNull();
        assertThatThrownBy(() -> Event.of(null, "v", 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThatThrownBy(() -> new Event<>("k", "v", 1, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("headers");
    }

    @Test
    void keepsHeadersImmutableAndInInsertionOrder() {
        Map<String, String> source = new java.util.LinkedHashMap<>();
        source.put("b", "2");
        source.put("a", "1");
        Headers headers = Headers.of(source);
        source.put("c", "3");

        Headers more = headers.with("c", "3");

        assertThat(headers.asMap()).containsExactly(Map.entry("b", "2"), Map.entry("a", "1"));
        assertThat(more.asMap()).containsExactly(Map.entry("b", "2"), Map.entry("a", "1"), Map.entry("c", "3"));
        assertThat(headers.get("a")).contains("1");
        assertThat(headers.get("zz")).isEmpty();
        assertThatThrownBy(() -> headers.asMap().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void sharesTheEmptyHeaders() {
        assertThat(Headers.of(Map.of())).isSameAs(Headers.empty());
        assertThat(Headers.empty().isEmpty()).isTrue();
        assertThat(Headers.empty().size()).isZero();
    }

    @Test
    void refusesNullHeaderNamesAndValuesNamingTheHeader() {
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("trace", null);

        assertThatThrownBy(() -> Headers.of(nullValue)).isInstanceOf(NullPointerException.class)
                .hasMessage("value of header 'trace'");
        assertThatThrownBy(() -> Headers.empty().with(null, "v")).isInstanceOf(NullPointerException.class);
    }

    @Test
    void refusesASubtaskOutsideTheParallelism() {
        assertThatThrownBy(() -> new OperatorInfo("t", "o", 3, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("subtask 3 is outside parallelism 3");
        assertThatThrownBy(() -> new OperatorInfo("t", "o", 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OperatorInfo("t", "o", -1, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}

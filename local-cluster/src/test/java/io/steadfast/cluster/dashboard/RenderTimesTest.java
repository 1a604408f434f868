package io.steadfast.cluster.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RenderTimesTest {

    @Test
    void summarisesMedianNearestRankP95AndMax() {
        List<Double> oneToTwenty = IntStream.rangeClosed(1, 20).mapToObj(i -> (double) i).toList();
        RenderTimes times = new RenderTimes("topology", oneToTwenty);

        assertThat(times.median()).isEqualTo(10.5);
        assertThat(times.p95()).isEqualTo(19.0);
        assertThat(times.max()).isEqualTo(20.0);
    }

    @Test
    void anOddCountHasItsMiddleAsMedian() {
        assertThat(new RenderTimes("hosts", List.of(30.0, 10.0, 20.0)).median()).isEqualTo(20.0);
    }

    @Test
    void printsOneRowPerView() {
        String table = RenderTimes.table(List.of(new RenderTimes("topology", List.of(12.0, 14.0)),
                new RenderTimes("hosts", List.of(3.0))));

        assertThat(table.lines()).hasSize(3);
        assertThat(table.lines().toList().get(1)).startsWith("topology").contains("13.0", "14.0");
    }

    @Test
    void refusesAnEmptySeries() {
        assertThatThrownBy(() -> new RenderTimes("topology", List.of())).hasMessageContaining("topology");
    }
}

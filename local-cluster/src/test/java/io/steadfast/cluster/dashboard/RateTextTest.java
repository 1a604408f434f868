package io.steadfast.cluster.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateTextTest {

    @Test
    void readsPlainGroupedAndSuffixedRates() {
        assertThat(RateText.eventsPerSecond("12,345 events/s")).hasValue(12_345);
        assertThat(RateText.eventsPerSecond("12 345/s")).hasValue(12_345);
        assertThat(RateText.eventsPerSecond("12.5k/s")).hasValue(12_500);
        assertThat(RateText.eventsPerSecond("1.2 M events/s")).hasValue(1_200_000);
        assertThat(RateText.eventsPerSecond("0/s")).hasValue(0);
        assertThat(RateText.eventsPerSecond("19987.4")).hasValue(19_987.4);
    }

    @Test
    void readsNothingFromTextWithoutANumber() {
        assertThat(RateText.eventsPerSecond("—")).isEmpty();
        assertThat(RateText.eventsPerSecond("")).isEmpty();
    }
}

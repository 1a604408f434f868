package io.steadfast.runtime.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Assertion that a consumer saw exactly the events 1..n, each once, in order. */
final class ExactlyOnce {

    private ExactlyOnce() {
    }

    static void assertSeqsAreOneTo(RecordingConsumer consumer, long n) {
        assertThat(consumer.errors()).as("payload/seq mismatches").isEmpty();
        long[] seqs = consumer.seqs();
        for (int i = 0; i < Math.min(seqs.length, n); i++) {
            if (seqs[i] != i + 1) {
                fail("event #%d should be seq %d but was %d (neighbours %s)", i, i + 1, seqs[i],
                        java.util.Arrays.toString(java.util.Arrays.copyOfRange(seqs, Math.max(0, i - 3),
                                Math.min(seqs.length, i + 4))));
            }
        }
        assertThat(seqs.length).as("number of events received").isEqualTo(n);
    }
}

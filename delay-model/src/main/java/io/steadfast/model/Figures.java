package io.steadfast.model;

import java.util.Locale;

/** Numbers as the explanations of a prediction write them: seconds with their unit, counts with separators. */
final class Figures {

    private Figures() {
    }

    /** {@code 1.250 s}, {@code 4.000 ms}, {@code 2.000 µs}. */
    static String seconds(double seconds) {
        if (seconds >= 0.1 || seconds == 0) {
            return String.format(Locale.ROOT, "%.3f s", seconds);
        }
        if (seconds >= 1e-4) {
            return String.format(Locale.ROOT, "%.3f ms", seconds * 1e3);
        }
        return String.format(Locale.ROOT, "%.3f µs", seconds * 1e6);
    }

    /** {@code 8,000}: rounded to a whole record. */
    static String records(double records) {
        return String.format(Locale.ROOT, "%,d", Math.round(records));
    }

    /** {@code 20,000,000 B}. */
    static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d B", bytes);
    }

    /** {@code 1 task}, {@code 4 tasks}. */
    static String tasks(int count) {
        return count + (count == 1 ? " task" : " tasks");
    }

    /** {@code 0.80}: a utilisation. */
    static String utilisation(double rho) {
        return String.format(Locale.ROOT, "%.2f", rho);
    }
}

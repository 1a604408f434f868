package io.steadfast.cluster.dashboard;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The durations of a series of page updates as the page measured them ({@code window.steadfastRenderHistory}, in
 * milliseconds): median, 95th percentile (nearest rank) and maximum, and a small table of them.
 *
 * @param view   what was rendered, for the table
 * @param millis the durations, in the order they happened
 */
record RenderTimes(String view, List<Double> millis) {

    RenderTimes {
        if (millis.isEmpty()) {
            throw new IllegalArgumentException("No render times of " + view + " to summarise");
        }
        millis = List.copyOf(millis);
    }

    double median() {
        List<Double> sorted = sorted();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The nearest-rank 95th percentile: the smallest duration that at least 95 % of the updates did not exceed. */
    double p95() {
        List<Double> sorted = sorted();
        int rank = (int) Math.ceil(0.95 * sorted.size());
        return sorted.get(rank - 1);
    }

    double max() {
        return Collections.max(millis);
    }

    /** Header and one row per summary, e.g. for standard output. */
    static String table(List<RenderTimes> all) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-40s %8s %10s %8s %8s%n", "page update",
                "updates", "median ms", "p95 ms", "max ms"));
        for (RenderTimes times : all) {
            table.append(String.format(Locale.ROOT, "%-40s %8d %10.1f %8.1f %8.1f%n", times.view(),
                    times.millis().size(), times.median(), times.p95(), times.max()));
        }
        return table.toString();
    }

    private List<Double> sorted() {
        List<Double> sorted = new ArrayList<>(millis);
        Collections.sort(sorted);
        return sorted;
    }
}

package io.steadfast.cluster.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How long the open page took over its next live updates, as it measured them itself: the script's own work
 * ({@code window.steadfastRenderHistory}) and the time until the browser had painted the update
 * ({@code window.steadfastPaintHistory}: style, layout and paint of the next frame included).
 */
final class PageUpdates {

    private PageUpdates() {
    }

    /** The script's and the painted durations of the next {@code updates} updates of {@code view}, in that order. */
    static List<RenderTimes> ofNext(DashboardPage page, String view, int updates, Duration timeout) {
        Histories start = Histories.of(page);
        page.await(() -> updates + " updates of " + view + " painted (there are "
                        + (Histories.of(page).painted().size() - start.painted().size()) + ")",
                timeout, d -> Histories.of(page).bothGrewBy(start, updates));
        Histories now = Histories.of(page);
        return List.of(new RenderTimes(view + ", script", now.script().subList(start.script().size(),
                        start.script().size() + updates)),
                new RenderTimes(view + ", painted", now.painted().subList(start.painted().size(),
                        start.painted().size() + updates)));
    }

    /** Both histories as the page holds them now, read in one script. */
    private record Histories(List<Double> script, List<Double> painted) {

        static Histories of(DashboardPage page) {
            List<?> both = (List<?>) page.script("return [window.steadfastRenderHistory || [],"
                    + " window.steadfastPaintHistory || []];");
            return new Histories(millis(both.get(0)), millis(both.get(1)));
        }

        boolean bothGrewBy(Histories start, int updates) {
            return script.size() >= start.script.size() + updates && painted.size() >= start.painted.size() + updates;
        }

        private static List<Double> millis(Object history) {
            List<Double> millis = new ArrayList<>();
            for (Object value : (List<?>) history) {
                millis.add(((Number) value).doubleValue());
            }
            return millis;
        }
    }
}

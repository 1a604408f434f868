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

    private static final String SCRIPT = "steadfastRenderHistory";
    private static final String PAINTED = "steadfastPaintHistory";

    private PageUpdates() {
    }

    /** The script's and the painted durations of the next {@code updates} updates of {@code view}, in that order. */
    static List<RenderTimes> ofNext(DashboardPage page, String view, int updates, Duration timeout) {
        int scriptStart = history(page, SCRIPT).size();
        int paintedStart = history(page, PAINTED).size();
        page.await(() -> updates + " updates of " + view + " painted (there are "
                        + (history(page, PAINTED).size() - paintedStart) + ")",
                timeout, d -> history(page, SCRIPT).size() >= scriptStart + updates
                        && history(page, PAINTED).size() >= paintedStart + updates);
        return List.of(
                new RenderTimes(view + ", script", history(page, SCRIPT).subList(scriptStart, scriptStart + updates)),
                new RenderTimes(view + ", painted", history(page, PAINTED).subList(paintedStart,
                        paintedStart + updates)));
    }

    private static List<Double> history(DashboardPage page, String name) {
        Object history = page.script("return window." + name + " || [];");
        List<Double> millis = new ArrayList<>();
        for (Object value : (List<?>) history) {
            millis.add(((Number) value).doubleValue());
        }
        return millis;
    }
}

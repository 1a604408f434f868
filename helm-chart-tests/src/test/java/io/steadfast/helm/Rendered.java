package io.steadfast.helm;

import java.util.EnumMap;
import java.util.Map;

/** The chart rendered once per set of values for all the tests of a run (helm takes a second or two each time). */
final class Rendered {

    private static final Map<ChartValues, RenderedManifests> CACHE = new EnumMap<>(ChartValues.class);

    private Rendered() {
    }

    static synchronized RenderedManifests with(ChartValues values) {
        Helm helm = Helm.require();
        return CACHE.computeIfAbsent(values, v -> RenderedManifests.parse(helm.template(v)));
    }
}

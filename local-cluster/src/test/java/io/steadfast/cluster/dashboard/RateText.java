package io.steadfast.cluster.dashboard;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an events/s figure as the dashboard shows it ({@code 12,345 events/s}, {@code 12.3k/s}, {@code 1.2 M/s},
 * {@code 0/s}): the first number, with group separators dropped and a k or M suffix applied.
 */
final class RateText {

    private static final Pattern NUMBER = Pattern.compile("(\\d[\\d,\\u00a0\\u202f ]*(?:\\.\\d+)?)\\s*([kKmM])?");

    private RateText() {
    }

    /** The events per second the text shows; empty if it shows no number (e.g. {@code —} before the first rate). */
    static OptionalDouble eventsPerSecond(String text) {
        Matcher matcher = NUMBER.matcher(text);
        if (!matcher.find()) {
            return OptionalDouble.empty();
        }
        double value = Double.parseDouble(matcher.group(1).replaceAll("[,\\u00a0\\u202f ]", ""));
        String suffix = matcher.group(2);
        if (suffix != null) {
            value *= suffix.equalsIgnoreCase("k") ? 1_000 : 1_000_000;
        }
        return OptionalDouble.of(value);
    }
}

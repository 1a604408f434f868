package io.steadfast.cluster;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option: a whole number of seconds ({@code 120}, what the launcher always took), a number with a
 * unit ({@code 500ms}, {@code 90s}, {@code 2m}, {@code 1h}) or ISO-8601 ({@code PT2M}).
 */
final class DurationConverter implements ITypeConverter<Duration> {

    private static final Pattern NUMBER_AND_UNIT = Pattern.compile("(\\d+)(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        Matcher matcher = NUMBER_AND_UNIT.matcher(value.trim());
        try {
            if (!matcher.matches()) {
                return Duration.parse(value.trim());
            }
            long amount = Long.parseLong(matcher.group(1));
            String unit = matcher.group(2) == null ? "s" : matcher.group(2);
            return switch (unit) {
                case "ms" -> Duration.ofMillis(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofSeconds(amount);
            };
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a duration; give seconds (120), a number with"
                    + " ms, s, m or h (90s, 2m) or ISO-8601 (PT2M)");
        }
    }
}

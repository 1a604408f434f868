package io.steadfast.benchmarks;

import java.util.Locale;

/**
 * The events per second the job's sources emit.
 *
 * @param eventsPerSecond the rate
 * @param perSource       whether each source emits it (else the sources share it)
 */
record InputRate(long eventsPerSecond, boolean perSource) {

    /** Parses {@code <events/s>/job} or {@code <events/s>/source}. */
    static InputRate parse(String text) {
        String[] parts = text.split("/");
        if (parts.length != 2 || !(parts[1].equals("job") || parts[1].equals("source"))) {
            throw new IllegalArgumentException("input: '" + text + "' is not <events/s>/job or <events/s>/source,"
                    + " e.g. 20000/job");
        }
        long rate = Long.parseLong(parts[0]);
        if (rate <= 0) {
            throw new IllegalArgumentException("input: the rate must be positive, not " + rate);
        }
        return new InputRate(rate, parts[1].equals("source"));
    }

    /** Each of {@code sources} source tasks' rate. */
    long perSourceTask(int sources) {
        return perSource ? eventsPerSecond : Math.max(1, eventsPerSecond / sources);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%,d events/s %s", eventsPerSecond, perSource ? "per source task"
                : "for the whole job");
    }
}

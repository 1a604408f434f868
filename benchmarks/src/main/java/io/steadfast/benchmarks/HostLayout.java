package io.steadfast.benchmarks;

/**
 * How many hosts (besides the standby) run a job of a given size.
 *
 * @param fixedHosts    that many at every size, or 0 to scale with the job
 * @param tasksPerHost  when scaling, one host per this many tasks (rounded up), at least {@link #MIN_HOSTS}
 */
record HostLayout(int fixedHosts, int tasksPerHost) {

    /** Fewer hosts than this and a killed host would run most of a small job. */
    static final int MIN_HOSTS = 3;

    /** Parses {@code <hosts>} (fixed) or {@code <tasks>/host}. */
    static HostLayout parse(String text) {
        try {
            if (text.endsWith("/host")) {
                int perHost = Integer.parseInt(text.substring(0, text.length() - "/host".length()));
                if (perHost > 0) {
                    return new HostLayout(0, perHost);
                }
            } else {
                int hosts = Integer.parseInt(text);
                if (hosts >= 2) {
                    return new HostLayout(hosts, 0);
                }
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new IllegalArgumentException("hosts: '" + text + "' is neither a number of hosts (at least 2, e.g. 3)"
                + " nor <tasks>/host with a positive number of tasks (e.g. 4/host)");
    }

    /** The hosts that run a job of {@code tasks} tasks, the standby not counted. */
    int hostsFor(int tasks) {
        return fixedHosts > 0 ? fixedHosts : Math.max(MIN_HOSTS, (tasks + tasksPerHost - 1) / tasksPerHost);
    }

    @Override
    public String toString() {
        return fixedHosts > 0 ? fixedHosts + " hosts at every size"
                : "one host per " + tasksPerHost + " tasks, at least " + MIN_HOSTS;
    }
}

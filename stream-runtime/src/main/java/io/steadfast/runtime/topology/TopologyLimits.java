package io.steadfast.runtime.topology;

/**
 * Bounds on what a submitted topology may ask for; they protect the router and the hosts from specs that are
 * too large to plan or run. All are checked on the spec, before it is expanded into a plan.
 *
 * @param maxOperators the most operators in one topology
 * @param maxParallelism the highest parallelism of one operator
 * @param maxTotalTasks the highest sum of the parallelism of all operators
 * @param maxInputsPerOperator the most declared inputs of one operator
 * @param maxSpecBytes the largest topology JSON document accepted, in bytes
 * @param maxChannels the most channels in the plan: the sum over all inputs of upstream parallelism × downstream
 *                    parallelism, since every input connects each upstream subtask to each downstream subtask
 */
public record TopologyLimits(int maxOperators, int maxParallelism, int maxTotalTasks, int maxInputsPerOperator,
                             int maxSpecBytes, int maxChannels) {

    /** 1 MiB. */
    public static final int DEFAULT_MAX_SPEC_BYTES = 1 << 20;

    /**
     * 65,536 channels take about 2.3 GiB of heap across the hosts before any record flows
     * ({@link ChannelFootprint}: 36 KiB each): what 8 hosts hold at their default limit of 8,192 channels each
     * ({@code steadfast.host.limits.max-channels}). That still allows two operators of parallelism 256 joined by
     * one input, while 1,024 × 1,024 (1,048,576 channels, about 36 GiB) is refused instead of exhausting the heap
     * of the host it lands on. The recovery benchmark's largest job (64 tasks) has 1,024 channels.
     */
    public static final int DEFAULT_MAX_CHANNELS = 65_536;

    public TopologyLimits {
        requirePositive("maxOperators", maxOperators);
        requirePositive("maxParallelism", maxParallelism);
        requirePositive("maxTotalTasks", maxTotalTasks);
        requirePositive("maxInputsPerOperator", maxInputsPerOperator);
        requirePositive("maxSpecBytes", maxSpecBytes);
        requirePositive("maxChannels", maxChannels);
        if (maxTotalTasks < maxParallelism) {
            throw new IllegalArgumentException("maxTotalTasks (" + maxTotalTasks + ") must be >= maxParallelism ("
                    + maxParallelism + "): one operator at full parallelism must fit; raise maxTotalTasks");
        }
        if (maxChannels < maxParallelism) {
            throw new IllegalArgumentException("maxChannels (" + maxChannels + ") must be >= maxParallelism ("
                    + maxParallelism + "): one operator at full parallelism reading a source of parallelism 1 must"
                    + " fit; raise maxChannels");
        }
    }

    /**
     * 256 operators, parallelism 1024, 4096 tasks, 64 inputs per operator, 1 MiB of JSON, 65,536 channels (see
     * {@link #DEFAULT_MAX_CHANNELS}).
     */
    public static TopologyLimits defaults() {
        return new TopologyLimits(256, 1024, 4096, 64, DEFAULT_MAX_SPEC_BYTES, DEFAULT_MAX_CHANNELS);
    }

    /** A copy with another spec size limit. */
    public TopologyLimits withMaxSpecBytes(int bytes) {
        return new TopologyLimits(maxOperators, maxParallelism, maxTotalTasks, maxInputsPerOperator, bytes,
                maxChannels);
    }

    /** A copy with another channel limit. */
    public TopologyLimits withMaxChannels(int channels) {
        return new TopologyLimits(maxOperators, maxParallelism, maxTotalTasks, maxInputsPerOperator, maxSpecBytes,
                channels);
    }

    private static void requirePositive(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be >= 1, was " + value);
        }
    }
}

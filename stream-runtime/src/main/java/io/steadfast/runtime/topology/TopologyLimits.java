package io.steadfast.runtime.topology;

/**
 * Bounds on what a submitted topology may ask for; they protect the router and the hosts from specs that are
 * too large to plan or run.
 *
 * @param maxOperators the most operators in one topology
 * @param maxParallelism the highest parallelism of one operator
 * @param maxTotalTasks the highest sum of the parallelism of all operators
 * @param maxInputsPerOperator the most declared inputs of one operator
 * @param maxSpecBytes the largest topology JSON document accepted, in bytes
 */
public record TopologyLimits(int maxOperators, int maxParallelism, int maxTotalTasks, int maxInputsPerOperator,
                             int maxSpecBytes) {

    /** 1 MiB. */
    public static final int DEFAULT_MAX_SPEC_BYTES = 1 << 20;

    public TopologyLimits {
        requirePositive("maxOperators", maxOperators);
        requirePositive("maxParallelism", maxParallelism);
        requirePositive("maxTotalTasks", maxTotalTasks);
        requirePositive("maxInputsPerOperator", maxInputsPerOperator);
        requirePositive("maxSpecBytes", maxSpecBytes);
        if (maxTotalTasks < maxParallelism) {
            throw new IllegalArgumentException("maxTotalTasks (" + maxTotalTasks + ") must be >= maxParallelism ("
                    + maxParallelism + "): one operator at full parallelism must fit; raise maxTotalTasks");
        }
    }

    /** 256 operators, parallelism 1024, 4096 tasks, 64 inputs per operator, 1 MiB of JSON. */
    public static TopologyLimits defaults() {
        return new TopologyLimits(256, 1024, 4096, 64, DEFAULT_MAX_SPEC_BYTES);
    }

    /** A copy with another spec size limit. */
    public TopologyLimits withMaxSpecBytes(int bytes) {
        return new TopologyLimits(maxOperators, maxParallelism, maxTotalTasks, maxInputsPerOperator, bytes);
    }

    private static void requirePositive(String field, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(field + " must be >= 1, was " + value);
        }
    }
}

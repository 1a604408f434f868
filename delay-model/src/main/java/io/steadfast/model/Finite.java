package io.steadfast.model;

/**
 * The checks every number the model takes must pass: finite (no NaN, no infinity, which would leave every sum
 * after it meaningless) and not negative, or positive where the model divides by it. The message names the owner
 * (a task or a settings group), the field and the value seen.
 */
final class Finite {

    private Finite() {
    }

    /** {@code value} if it is finite and {@code >= 0}; otherwise an {@link IllegalArgumentException}. */
    static double atLeastZero(String owner, String field, double value) {
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException(owner + ": " + field + " must be a finite number >= 0, was " + value);
        }
        return value;
    }

    /** {@code value} if it is finite and {@code > 0}; otherwise an {@link IllegalArgumentException}. */
    static double positive(String owner, String field, double value) {
        if (!Double.isFinite(value) || value <= 0) {
            throw new IllegalArgumentException(owner + ": " + field + " must be a finite number > 0, was " + value);
        }
        return value;
    }

    /** {@code value} if it is {@code >= 0}; otherwise an {@link IllegalArgumentException}. */
    static long atLeastZero(String owner, String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(owner + ": " + field + " must be >= 0, was " + value);
        }
        return value;
    }
}

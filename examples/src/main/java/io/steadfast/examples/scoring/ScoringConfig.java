package io.steadfast.examples.scoring;

import io.steadfast.api.operator.ConfigException;

/**
 * Config of every scoring version: the faults it injects, all optional (left out, the version computes right and
 * never throws or stalls). A fault fires deterministically, so a run can be compared with a fault-free reference.
 *
 * @param wrongFraction the share of inputs, 0..1 (default 0), given a wrong score; which inputs is a function of the
 *                      input's key and value (and of the version), so a replay is wrong on the same inputs
 * @param throwAtInput  throw an {@link InjectedFaultException} at this input of the task (1 = the first), once in
 *                      the life of the process; null for never
 * @param stallAtInput  sleep {@code stallMs} at this input of the task, once in the life of the process; null for never
 * @param stallMs       how long the stall lasts, 1..{@value #MAX_STALL_MS} ms; required with {@code stallAtInput} and
 *                      only with it
 */
public record ScoringConfig(Double wrongFraction, Long throwAtInput, Long stallAtInput, Long stallMs) {

    /** Ten minutes: longer is no longer a stall worth voting past but a hung job. */
    public static final long MAX_STALL_MS = 600_000;

    public ScoringConfig {
        wrongFraction = wrongFraction == null ? 0.0 : wrongFraction;
        if (!(wrongFraction >= 0 && wrongFraction <= 1)) {
            throw new ConfigException("wrongFraction", "wrongFraction must be a share in 0..1 of the inputs that get"
                    + " a wrong score, was " + wrongFraction);
        }
        requireInputNumber("throwAtInput", throwAtInput);
        requireInputNumber("stallAtInput", stallAtInput);
        if (stallAtInput != null && stallMs == null) {
            throw new ConfigException("stallMs", "stallMs is missing: stallAtInput " + stallAtInput
                    + " needs how long to stall, 1.." + MAX_STALL_MS + " ms");
        }
        if (stallMs != null && stallAtInput == null) {
            throw new ConfigException("stallAtInput", "stallAtInput is missing: stallMs " + stallMs
                    + " needs the input (1 = the first) at which to stall; or remove stallMs");
        }
        if (stallMs != null && (stallMs < 1 || stallMs > MAX_STALL_MS)) {
            throw new ConfigException("stallMs", "stallMs must be 1.." + MAX_STALL_MS + " ms, was " + stallMs);
        }
    }

    /** A version that injects no fault. */
    public static ScoringConfig none() {
        return new ScoringConfig(null, null, null, null);
    }

    /** Whether a fault fires at a given input of the task, so that the task must count its inputs. */
    boolean hasOneShotFault() {
        return throwAtInput != null || stallAtInput != null;
    }

    private static void requireInputNumber(String field, Long input) {
        if (input != null && input < 1) {
            throw new ConfigException(field, field + " must be an input number of at least 1 (1 = the first input),"
                    + " was " + input);
        }
    }
}

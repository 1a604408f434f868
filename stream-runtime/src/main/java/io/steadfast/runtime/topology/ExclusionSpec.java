package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * When a version of an N-version operator is excluded from its votes and re-admitted, the {@code "exclusion"} part of
 * its {@code "voting"}: {@code {"threshold": 0.2, "window": 100, "probation": 100}}. A version whose outvoted and
 * late ballots make more than {@code threshold} of its last {@code window} votes is excluded: its outputs are still
 * compared (in shadow) but count for nothing; once it has passed {@code probation} votes in a row in shadow, it
 * takes part again. Kept raw, like the rest of the spec.
 *
 * @param threshold the share of disagreeing or late ballots over the window that excludes a version, in (0, 1]
 * @param window    how many of its latest votes the share is taken over
 * @param probation how many votes in a row it must pass in shadow to be re-admitted
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExclusionSpec(Double threshold, Integer window, Integer probation) {

    @JsonCreator
    static ExclusionSpec fromJson(@JsonProperty("threshold") Double threshold, @JsonProperty("window") Integer window,
                                  @JsonProperty("probation") Integer probation) {
        return new ExclusionSpec(threshold, window, probation);
    }
}

package io.steadfast.runtime.topology;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Locale;

/**
 * How a topology recovers from a lost task, the optional {@code "recovery"} section of its JSON:
 * {@code {"mode": "LOCAL"}} (the default: only the lost tasks roll back, everything else keeps running) or
 * {@code {"mode": "GLOBAL"}} (every task restores from the latest completed checkpoint) or {@code {"mode": "AUTO"}}
 * (whichever of the two the router's delay model predicts to be faster when the failure comes). The mode is kept
 * raw, as written, so that an unknown one is reported by {@link TopologyValidator} with the other problems.
 *
 * @param mode LOCAL, GLOBAL or AUTO (any case), or null for LOCAL
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoverySpec(String mode) {

    /** The modes a spec may name. */
    public static final List<String> MODES = List.of("LOCAL", "GLOBAL", "AUTO");

    /** No section: local recovery. */
    public static final RecoverySpec DEFAULTS = new RecoverySpec(null);

    @JsonCreator
    static RecoverySpec fromJson(@JsonProperty("mode") String mode) {
        return new RecoverySpec(mode);
    }

    /** True if the mode is left out or one of {@link #MODES}. */
    @JsonIgnore
    public boolean isValid() {
        return mode == null || MODES.contains(mode.toUpperCase(Locale.ROOT));
    }

    /** The mode in upper case, LOCAL when left out; use after validation. */
    @JsonIgnore
    public String normalizedMode() {
        return mode == null ? "LOCAL" : mode.toUpperCase(Locale.ROOT);
    }
}

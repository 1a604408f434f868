package io.steadfast.router.model;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * What the delay model assumes where the router measures nothing ({@code steadfast.router.model.*}): the costs of a
 * recovery's steps and of a channel's network hop, and the variability of arrivals and service. Measured figures
 * (rates, busy time, state sizes, checkpoint timing, detection settings) come from the running topology. The
 * defaults of the costs are fitted to the recovery benchmark on a 2-core machine (docs/model.md).
 *
 * @param restartPerRecovery a recovery's fixed cost of redeploying: plans sent, channels rewired
 * @param restartPerTask the cost of redeploying each task it recovers, on one host (hosts deploy in parallel)
 * @param globalRestartExtra what a GLOBAL recovery pays once more: it cancels the topology on every live host first
 * @param restorePerSecond how many bytes of state a recovered task fetches per second from the checkpoint-service
 * @param restoreFetch a snapshot fetch's fixed latency
 * @param network a channel's network delay, besides the batching of its frames (which the model computes)
 * @param arrivalScv c_a², the squared coefficient of variation of the times between a task's arrivals (1: Poisson)
 * @param serviceScv c_s², that of its service times (1: exponential)
 */
@ConfigurationProperties("steadfast.router.model")
@Validated
public record ModelProperties(@NotNull @DefaultValue("20ms") Duration restartPerRecovery,
                              @NotNull @DefaultValue("4ms") Duration restartPerTask,
                              @NotNull @DefaultValue("45ms") Duration globalRestartExtra,
                              @NotNull @DefaultValue("100MB") DataSize restorePerSecond,
                              @NotNull @DefaultValue("3ms") Duration restoreFetch,
                              @NotNull @DefaultValue("200us") Duration network,
                              @DecimalMin("0") @DefaultValue("1") double arrivalScv,
                              @DecimalMin("0") @DefaultValue("1") double serviceScv) {

    /** The defaults, for code that runs without Spring's binding (tests). */
    public static ModelProperties defaults() {
        return new ModelProperties(Duration.ofMillis(20), Duration.ofMillis(4), Duration.ofMillis(45),
                DataSize.ofMegabytes(100), Duration.ofMillis(3), Duration.ofNanos(200_000), 1, 1);
    }

    static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}

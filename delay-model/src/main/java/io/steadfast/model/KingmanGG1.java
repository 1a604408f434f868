package io.steadfast.model;

/**
 * The G/G/1 queue by Kingman's heavy-traffic approximation: any distribution of inter-arrival and service times,
 * described by their means and squared coefficients of variation (c² = variance / mean²).
 *
 * <pre>
 *   ρ   = λ · E[S]
 *   W_q ≈ (ρ / (1 − ρ)) · ((c_a² + c_s²) / 2) · b · E[S]  +  (b − 1) / 2 · E[S]
 *   W   = W_q + E[S]
 * </pre>
 *
 * where records arrive in frames of b ({@link TaskLoad#recordsPerFrame()}): the queue is one of frames, each
 * served in b · E[S], and a record then waits for the records before it in its frame.
 *
 * With c_a² = c_s² = 1 it is exactly {@link MM1}; with c_s² = 0 (a constant time per record) and Poisson arrivals
 * the wait halves (the M/D/1 result). It is the default because tasks' service times are far from exponential and
 * their arrivals far from Poisson, and both are measurable.
 *
 * <p>Where it stops holding:
 * <ul>
 *   <li>Non-Poisson arrivals at low load: with c_a² = 1 it is exact (the Pollaczek–Khinchine mean of M/G/1); with
 *       other arrivals it is a heavy-traffic result that can be off by tens of percent below ρ ≈ 0.5, where the
 *       wait is small against the service and channel terms anyway.</li>
 *   <li>Near saturation (ρ → 1): the wait grows as 1 / (1 − ρ), so measurement errors in λ or E[S] are amplified;
 *       such tasks are flagged {@link Stability#NEAR_SATURATION}. At ρ ≥ 1 there is no steady state and no
 *       wait.</li>
 *   <li>Batching: records arrive a frame at a time (up to 4,096 records per frame, or all that a linger period
 *       gathered). Taken per record, those arrivals are far burstier than Poisson (c_a² about 2b − 1), which is
 *       why the queue is one of frames; b is the mean, and frames of unequal sizes make the wait within a frame
 *       somewhat longer than (b − 1) / 2 · E[S].</li>
 *   <li>One server per task and first-come-first-served; control mail (barriers, timers) taking the mailbox thread
 *       counts only if it is in the measured busy time.</li>
 * </ul>
 */
public final class KingmanGG1 implements QueueingModel {

    private final double nearSaturation;

    /** Near saturation from ρ = {@value Stability#DEFAULT_NEAR_SATURATION}. */
    public KingmanGG1() {
        this(Stability.DEFAULT_NEAR_SATURATION);
    }

    /** @param nearSaturation the utilisation from which a task is flagged {@link Stability#NEAR_SATURATION} */
    public KingmanGG1(double nearSaturation) {
        this.nearSaturation = Stability.requireBound(nearSaturation);
    }

    @Override
    public String name() {
        return "G/G/1 (Kingman)";
    }

    @Override
    public TaskDelay delay(TaskLoad load) {
        double variability = (load.arrivalScv() + load.serviceScv()) / 2;
        return TaskDelay.singleServer(load, variability, nearSaturation);
    }
}

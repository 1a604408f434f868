package io.steadfast.examples.scoring;

import io.steadfast.api.OperatorInfo;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults one task of a scoring version injects, as its {@link ScoringConfig} says.
 *
 * <p><b>Wrong values</b> are chosen by a hash of the input's key and value, salted with the version's type name: the
 * same inputs are wrong in every run and every replay (a fault a recovery cannot repair, which only voting masks),
 * two faulty versions are rarely wrong on the same input, and a wrong score is the right one plus 1..65,536, so two
 * wrong versions seldom agree on a value.
 *
 * <p><b>Throw and stall are transient</b>: each fires once in the life of the process, at the configured input of
 * the task counted since the process first ran it. The count belongs to the process, not to the PE instance, because a
 * task that throws is restarted in place from its snapshot with new instances: a count kept on them would start
 * again, reach the same input again, and the task would fail forever instead of once. A task recovered into another
 * process (after its host died) counts from zero there, so it may fire once more. A topology deployed again under the
 * same id into the same host processes does not fire again either: give each run its own topology id.
 */
final class InjectedFaults {

    /** Inputs taken per task in this JVM, for as long as it runs; only tasks with a one-shot fault are counted. */
    private static final ConcurrentMap<OperatorInfo, AtomicLong> INPUTS_PER_TASK = new ConcurrentHashMap<>();

    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    /** 2^-53: turns the top 53 bits of a hash into a double in [0, 1). */
    private static final double UNIT = 0x1.0p-53;

    private final String type;
    private final ScoringConfig config;
    private final OperatorInfo task;
    private final long salt;
    /** The task's input count in this process; null when no one-shot fault is configured. */
    private final AtomicLong inputs;

    InjectedFaults(String type, ScoringConfig config, OperatorInfo task) {
        this.type = type;
        this.config = config;
        this.task = task;
        this.salt = fnv1a(type);
        this.inputs = config.hasOneShotFault() ? INPUTS_PER_TASK.computeIfAbsent(task, t -> new AtomicLong()) : null;
    }

    /**
     * Counts one more input of the task and, at the configured inputs, stalls (the task thread sleeps, blocking the
     * task as a hung version would) or throws; a stall and a throw at the same input stall first.
     *
     * @throws InjectedFaultException at input {@code throwAtInput}, the first time the process reaches it
     */
    void beforeInput() {
        if (inputs == null) {
            return;
        }
        long input = inputs.incrementAndGet();
        if (config.stallAtInput() != null && input == config.stallAtInput()) {
            stall();
        }
        if (config.throwAtInput() != null && input == config.throwAtInput()) {
            throw new InjectedFaultException(type + " in operator '" + task.operatorId() + "' subtask " + task.subtask()
                    + " of topology '" + task.topologyId() + "' fails on purpose at its input " + input
                    + " (throwAtInput); restarted in this process it does not throw again");
        }
    }

    /** The score to emit for an input: {@code score} itself, or a wrong one if the input is among the chosen. */
    long apply(String key, long value, long score) {
        if (config.wrongFraction() == 0) {
            return score;
        }
        long hash = inputHash(key, value);
        return (hash >>> 11) * UNIT < config.wrongFraction() ? score + 1 + (hash >>> 48) : score;
    }

    private long inputHash(String key, long value) {
        return mix(fnv1a(key) * 31 + value + salt);
    }

    private void stall() {
        try {
            Thread.sleep(config.stallMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the task is being stopped: stop stalling, keep the flag for it
        }
    }

    private static long fnv1a(String s) {
        long hash = FNV_OFFSET_BASIS;
        for (int i = 0; i < s.length(); i++) {
            hash = (hash ^ s.charAt(i)) * FNV_PRIME;
        }
        return hash;
    }

    /** SplitMix64's finaliser: spreads every input bit over the whole hash, so a threshold on it is a fair share. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}

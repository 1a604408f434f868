package io.steadfast.runtime.voting;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.state.MapState;
import io.steadfast.api.state.ValueState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PE of a vote task: for each input of an N-version operator it gathers the versions' ballots (keyed by the
 * input's key, so one instance sees every ballot for its key) and emits what the voting policy decides, once.
 *
 * <p>A vote is decided as soon as every admitted version's ballot is in, or earlier once the ballots in settle it
 * (a strict majority agreeing, by count or by weight), or at its deadline with what it has. Ballots arriving after
 * the decision are counted (agreed or outvoted, or late after the deadline) and dropped: nothing reaches downstream
 * twice. Pending votes are keyed state; each version's record (counts, exclusion, recent outcomes) is task state; the
 * deadline is a processing-time timer, so a vote task recovered in place decides every vote as before.
 *
 * <p>A version is excluded when its outvoted and late outcomes pass the threshold over the window, unless that
 * would leave fewer admitted versions than the quorum; its ballots are then compared in shadow, and it is re-admitted
 * once it has passed the probation's number of votes in a row.
 */
public final class VotePe implements ProcessingElement<Object, Object> {

    private static final Logger LOG = LoggerFactory.getLogger(VotePe.class);
    /** How long after its deadline a decided vote still waits for the ballots of versions that have not sent one. */
    private static final long LATE_HORIZON_DEADLINES = 10;

    private final VoteConfig config;
    private final VotingPolicy policy;
    private final String operator;
    private final MapState<String, Object> pending;
    /** Per input origin, the highest sequence number decided for this key: older unknown ballots are late ones. */
    private final MapState<String, Long> decidedThrough;
    private final VersionRecords records;
    /** The processing-time timer armed for this key, at the earliest deadline of its undecided votes. */
    private final ValueState<Long> deadlineTimer;

    public VotePe(PeInit<VoteConfig> init) {
        this.config = init.config();
        this.policy = new VotingPolicy(config.rules());
        this.operator = init.operator().operatorId() + "#" + init.operator().subtask();
        this.pending = init.state().mapState("pending", Codecs.STRING, Codecs.ANY);
        this.decidedThrough = init.state().mapState("decidedThrough", Codecs.STRING, Codecs.LONG);
        this.deadlineTimer = init.state().valueState("deadlineTimer", Codecs.LONG);
        this.records = new VersionRecords(init.taskState().valueState(VersionRecord.TASK_STATE,
                VersionRecordList.CODEC), config.versions());
    }

    @Override
    public void process(Event<Object> event, PeContext<Object> context) {
        VersionBallot ballot = VersionBallot.fromWire(event.value());
        if (ballot.version() >= config.versions()) {
            throw new IllegalArgumentException("Vote task " + operator + " got a ballot of version "
                    + ballot.version() + " but its operator has " + config.versions() + " versions");
        }
        long now = context.currentProcessingTime();
        String id = ballot.inputId();
        PendingVote vote = PendingVote.fromState(pending.get(id));
        if (vote == null) {
            Long through = decidedThrough.get(ballot.origin());
            if (through != null && ballot.seq() <= through) {
                count(ballot.version(), false, true, now); // its vote was decided and forgotten long ago
                return;
            }
            vote = PendingVote.open(event.eventTime(), now + config.deadlineMs(), config.versions());
        }
        if (vote.decided()) {
            countAfterDecision(vote, ballot.version(), ballot.values(), now);
            keepOrForget(id, vote.with(ballot.version(), ballot.values()));
            return;
        }
        pending.put(id, vote.with(ballot.version(), ballot.values()).toState());
        decideInOrder(ballot.origin(), context, now);
        armDeadline(context, now);
    }

    @Override
    public void onProcessingTime(long timestamp, PeContext<Object> context) {
        deadlineTimer.clear();
        Set<String> undecidedOrigins = new TreeSet<>();
        for (Map.Entry<String, Object> entry : pending.entries().entrySet()) {
            if (!PendingVote.isDecided(entry.getValue())) {
                undecidedOrigins.add(InputId.parse(entry.getKey()).origin());
            }
        }
        undecidedOrigins.forEach(origin -> decideInOrder(origin, context, timestamp));
        armDeadline(context, timestamp);
    }

    /**
     * Decides the undecided votes of one origin, oldest first, as long as the oldest can be decided: so the voted
     * outputs of one key leave in the order of their inputs, as they would from a single version. Forgets, on the
     * way, decided votes that stopped waiting for their missing ballots.
     */
    private void decideInOrder(String origin, PeContext<Object> context, long now) {
        while (true) {
            InputId oldest = null;
            PendingVote vote = null;
            List<String> expired = null;
            for (Map.Entry<String, Object> entry : pending.entries().entrySet()) {
                PendingVote candidate = PendingVote.fromState(entry.getValue());
                if (candidate.decided()) {
                    if (expiry(candidate) <= now) {
                        expired = expired == null ? new ArrayList<>() : expired;
                        expired.add(entry.getKey());
                    }
                    continue;
                }
                InputId id = InputId.parse(entry.getKey());
                if (id.origin().equals(origin) && (oldest == null || id.seq() < oldest.seq())) {
                    oldest = id;
                    vote = candidate;
                }
            }
            if (expired != null) {
                expired.forEach(pending::remove);
            }
            if (vote == null || !(now >= vote.deadlineAt() || allAdmittedIn(vote) || settled(vote))) {
                return;
            }
            decide(oldest, vote, context, now);
        }
    }

    /**
     * Keeps one processing-time timer for this key, at the earliest deadline of its undecided votes, and none when it
     * has none: most votes are decided long before their deadline, and a timer that fires for nothing costs more than
     * one set and deleted.
     */
    private void armDeadline(PeContext<Object> context, long now) {
        long earliest = Long.MAX_VALUE;
        for (Object state : pending.entries().values()) {
            if (!PendingVote.isDecided(state)) {
                earliest = Math.min(earliest, PendingVote.deadlineAt(state));
            }
        }
        Long armed = deadlineTimer.value();
        if (armed != null && armed == earliest) {
            return;
        }
        if (armed != null) {
            context.deleteProcessingTimeTimer(armed);
            deadlineTimer.clear();
        }
        if (earliest != Long.MAX_VALUE) {
            context.registerProcessingTimeTimer(Math.max(earliest, now));
            deadlineTimer.update(Math.max(earliest, now));
        }
    }

    private long expiry(PendingVote vote) {
        return vote.deadlineAt() + LATE_HORIZON_DEADLINES * config.deadlineMs();
    }

    private void decide(InputId id, PendingVote vote, PeContext<Object> context, long now) {
        List<VersionRecord> all = records.all();
        Verdict verdict = policy.decide(config.versions(), vote.ballotsOf(version -> !all.get(version).excluded()),
                version -> all.get(version).weight(config.window()));
        if (verdict.outcome() == Verdict.Outcome.FAILED) {
            throw new IllegalStateException("Vote task " + operator + " found no agreement on input " + id.text()
                    + " (onNoAgreement: fail): " + vote);
        }
        for (Object value : verdict.values()) {
            context.emit(new Event<>(context.key(), value, vote.eventTime(), Headers.empty()));
        }
        PendingVote decided = vote.decidedAs(verdict.values());
        boolean pastDeadline = now >= vote.deadlineAt();
        List<VersionRecord> counted = new ArrayList<>(all);
        for (int version = 0; version < config.versions(); version++) {
            if (decided.hasVoted(version)) {
                boolean agreeing = policy.agrees(new Ballot(version, decided.ballotOf(version)), decided.result());
                counted.set(version, outcome(version, counted.get(version).counted(agreeing, false,
                        config.window()), counted, now));
            } else if (pastDeadline && !all.get(version).excluded()) {
                counted.set(version, counted.get(version).missed(config.window()));
            }
        }
        records.putAll(counted);
        Long through = decidedThrough.get(id.origin());
        if (through == null || id.seq() > through) {
            decidedThrough.put(id.origin(), id.seq());
        }
        keepOrForget(id.text(), decided);
    }

    private void keepOrForget(String id, PendingVote decided) {
        if (decided.ballotCount() == config.versions()) {
            pending.remove(id);
        } else {
            pending.put(id, decided.toState());
        }
    }

    /** Counts a ballot of a decided vote: late after the deadline, else agreed or outvoted by the result. */
    private void countAfterDecision(PendingVote decided, int version, List<Object> values, long now) {
        boolean late = now > decided.deadlineAt() && !decided.hasVoted(version);
        boolean agreeing = !late && policy.agrees(new Ballot(version, values), decided.result());
        count(version, agreeing, late, now);
    }

    private void count(int version, boolean agreeing, boolean late, long now) {
        List<VersionRecord> all = records.all();
        records.put(version, outcome(version, all.get(version).counted(agreeing, late, config.window()), all, now));
    }

    /** A version's record after an outcome, excluded or re-admitted if the outcome tips it over. */
    private VersionRecord outcome(int version, VersionRecord after, List<VersionRecord> all, long now) {
        VoteConfig.Exclusion exclusion = config.exclusion();
        if (exclusion != null && !after.excluded() && after.badShare(exclusion.window()) > exclusion.threshold()) {
            return exclude(version, after, all, now);
        }
        if (exclusion != null && after.excluded() && after.streak() >= exclusion.probation()) {
            LOG.info("Vote task {} re-admits version {}: it passed {} votes in a row in shadow", operator, version,
                    exclusion.probation());
            return after.readmitted();
        }
        return after;
    }

    private VersionRecord exclude(int version, VersionRecord record, List<VersionRecord> all, long now) {
        long admitted = all.stream().filter(one -> !one.excluded()).count();
        if (admitted - 1 < config.quorum()) {
            return record;
        }
        LOG.warn("Vote task {} excludes version {}: {} of its recent ballots were outvoted or late (threshold {})",
                operator, version, String.format("%.0f%%", 100 * record.badShare(config.window())),
                config.exclusion().threshold());
        return record.excludedAt(now);
    }

    private boolean allAdmittedIn(PendingVote vote) {
        List<VersionRecord> all = records.all();
        for (int version = 0; version < config.versions(); version++) {
            if (!all.get(version).excluded() && !vote.hasVoted(version)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the ballots in already fix the result whatever the missing admitted versions send. */
    private boolean settled(PendingVote vote) {
        List<VersionRecord> all = records.all();
        return policy.settled(config.versions(), vote.ballotsOf(version -> !all.get(version).excluded()),
                version -> !all.get(version).excluded(), version -> all.get(version).weight(config.window()));
    }
}

package io.steadfast.runtime.voting;

import io.steadfast.api.Event;
import io.steadfast.api.Headers;
import io.steadfast.api.PeContext;
import io.steadfast.api.PeInit;
import io.steadfast.api.ProcessingElement;
import io.steadfast.api.codec.Codecs;
import io.steadfast.api.state.ValueState;
import java.util.ArrayList;
import java.util.List;
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
    /** The key's votes ({@link KeyVotes}): one value, so that a ballot costs one lookup and one update. */
    private final ValueState<Object> votes;
    private final VersionRecords records;

    public VotePe(PeInit<VoteConfig> init) {
        this.config = init.config();
        this.policy = new VotingPolicy(config.rules());
        this.operator = init.operator().operatorId() + "#" + init.operator().subtask();
        this.votes = init.state().valueState("votes", Codecs.ANY);
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
        KeyVotes key = KeyVotes.of(votes.value(), config.versions()).withoutExpired(now, lateHorizonMs());
        int at = key.indexOf(ballot.origin(), ballot.seq());
        if (at < 0) {
            if (ballot.seq() <= key.decidedThrough(ballot.origin())) {
                count(ballot.version(), false, true, now); // its vote was decided and forgotten long ago
                store(key);
                return;
            }
            key = key.withOpened(PendingVote.open(ballot.origin(), ballot.seq(), event.eventTime(),
                    now + config.deadlineMs(), config.versions()).with(ballot.version(), ballot.values()));
        } else if (key.vote(at).decided()) {
            PendingVote decided = key.vote(at);
            countAfterDecision(decided, ballot.version(), ballot.values(), now);
            store(keepOrForget(key, at, decided.with(ballot.version(), ballot.values())));
            return;
        } else {
            key = key.withVote(at, key.vote(at).with(ballot.version(), ballot.values()));
        }
        key = decideInOrder(key, ballot.origin(), context, now);
        store(armDeadline(key, context, now));
    }

    @Override
    public void onProcessingTime(long timestamp, PeContext<Object> context) {
        KeyVotes key = KeyVotes.of(votes.value(), config.versions()).withArmedTimer(KeyVotes.NO_TIMER)
                .withoutExpired(timestamp, lateHorizonMs());
        for (long origin : key.undecidedOrigins()) {
            key = decideInOrder(key, origin, context, timestamp);
        }
        store(armDeadline(key, context, timestamp));
    }

    private void store(KeyVotes key) {
        if (key.voteCount() == 0 && key.armedTimer() == KeyVotes.NO_TIMER && votes.value() == null) {
            return;
        }
        votes.update(key);
    }

    private long lateHorizonMs() {
        return LATE_HORIZON_DEADLINES * config.deadlineMs();
    }

    /**
     * Decides the undecided votes of one origin, oldest first, as long as the oldest can be decided: so the voted
     * outputs of one key leave in the order of their inputs, as they would from a single version.
     */
    private KeyVotes decideInOrder(KeyVotes key, long origin, PeContext<Object> context, long now) {
        while (true) {
            int oldest = key.oldestUndecided(origin);
            if (oldest < 0) {
                return key;
            }
            PendingVote vote = key.vote(oldest);
            Verdict verdict = now >= vote.deadlineAt || allAdmittedIn(vote) ? decision(vote) : settledDecision(vote);
            if (verdict == null) {
                return key;
            }
            key = decide(key, oldest, vote, verdict, context, now);
        }
    }

    /**
     * Keeps one processing-time timer armed for this key while it has undecided votes, due no later than the earliest
     * of their deadlines. A timer armed earlier stays when the votes it was armed for are decided: it fires once for
     * nothing (or for the votes opened since, and is armed again at their deadline). Most votes are decided long
     * before their deadline, and one timer per key and deadline costs far less than one set and deleted per vote.
     */
    private KeyVotes armDeadline(KeyVotes key, PeContext<Object> context, long now) {
        long earliest = key.earliestDeadline();
        long armed = key.armedTimer();
        if (earliest == Long.MAX_VALUE || armed != KeyVotes.NO_TIMER && armed <= earliest) {
            return key;
        }
        if (armed != KeyVotes.NO_TIMER) {
            context.deleteProcessingTimeTimer(armed);
        }
        long due = Math.max(earliest, now);
        context.registerProcessingTimeTimer(due);
        return key.withArmedTimer(due);
    }

    private Verdict decision(PendingVote vote) {
        List<VersionRecord> all = records.all();
        return policy.decide(config.versions(), vote.ballotsOf(version -> !all.get(version).excluded()),
                version -> all.get(version).weight(config.window()));
    }

    /** The verdict if the ballots in already fix it whatever the missing admitted versions send, else null. */
    private Verdict settledDecision(PendingVote vote) {
        List<VersionRecord> all = records.all();
        return policy.settledVerdict(config.versions(), vote.ballotsOf(version -> !all.get(version).excluded()),
                version -> !all.get(version).excluded(), version -> all.get(version).weight(config.window()));
    }

    private KeyVotes decide(KeyVotes key, int index, PendingVote vote, Verdict verdict, PeContext<Object> context,
                            long now) {
        if (verdict.outcome() == Verdict.Outcome.FAILED) {
            throw new IllegalStateException("Vote task " + operator + " found no agreement on input " + vote.seq
                    + " of origin " + vote.origin + " (onNoAgreement: fail): " + vote);
        }
        for (Object value : verdict.values()) {
            context.emit(new Event<>(context.key(), value, vote.eventTime, Headers.empty()));
        }
        PendingVote decided = vote.decidedAs(verdict.values());
        boolean pastDeadline = now >= vote.deadlineAt;
        List<VersionRecord> all = records.all();
        List<VersionRecord> counted = new ArrayList<>(all);
        for (int version = 0; version < config.versions(); version++) {
            if (decided.hasVoted(version)) {
                boolean agreeing = policy.agrees(decided.ballotOf(version), decided.result());
                counted.set(version, outcome(version, counted.get(version).counted(agreeing, false,
                        config.window()), counted, now));
            } else if (pastDeadline && !all.get(version).excluded()) {
                counted.set(version, counted.get(version).missed(config.window()));
            }
        }
        records.putAll(counted);
        return keepOrForget(key.withDecided(vote.origin, vote.seq), index, decided);
    }

    /** The key's votes with a decided one kept, or forgotten once every version's ballot is in. */
    private KeyVotes keepOrForget(KeyVotes key, int index, PendingVote decided) {
        return decided.ballotCount() == config.versions() ? key.without(index) : key.withVote(index, decided);
    }

    /** Counts a ballot of a decided vote: late after the deadline, else agreed or outvoted by the result. */
    private void countAfterDecision(PendingVote decided, int version, List<Object> values, long now) {
        boolean late = now > decided.deadlineAt && !decided.hasVoted(version);
        boolean agreeing = !late && policy.agrees(values, decided.result());
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
}

package io.steadfast.router.topology;

import io.steadfast.protocol.router.TopologyVotes;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.host.HostCallException;
import io.steadfast.router.host.HostClient;
import io.steadfast.router.host.RegisteredHost;
import io.steadfast.router.recovery.TaskFailureCounts;
import io.steadfast.runtime.operator.builtin.BuiltinOperators;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.plan.TaskSpec;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import io.steadfast.runtime.voting.VersionRecord;
import io.steadfast.runtime.voting.VoteConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads what the versions of each N-version operator of a topology did: every vote task's records of its versions
 * (task state, from its host), summed per version, with the failures of the version's tasks the router counted. A
 * vote task whose host does not answer is named, not guessed. Thread-safe, read only.
 */
public final class VoteReader {

    private static final Logger LOG = LoggerFactory.getLogger(VoteReader.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TopologyRepository topologies;
    private final HeartbeatFailureDetector detector;
    private final HostClient hostClient;
    private final Supplier<TaskFailureCounts> failures;

    public VoteReader(TopologyRepository topologies, HeartbeatFailureDetector detector, HostClient hostClient,
                      Supplier<TaskFailureCounts> failures) {
        this.topologies = topologies;
        this.detector = detector;
        this.hostClient = hostClient;
        this.failures = failures;
    }

    /** @throws io.steadfast.router.topology.TopologyException NOT_FOUND if the topology is unknown */
    public TopologyVotes read(TopologyId topology) {
        DeployedTopology deployed = topologies.find(topology).orElseThrow(() -> TopologyDeployer.notFound(topology));
        Map<OperatorId, List<TaskSpec>> voteTasks = new LinkedHashMap<>();
        for (TaskSpec task : deployed.plan().tasks()) {
            if (BuiltinOperators.VOTE.equals(task.type())) {
                voteTasks.computeIfAbsent(task.id().operator(), o -> new ArrayList<>()).add(task);
            }
        }
        List<TopologyVotes.Operator> operators = new ArrayList<>();
        voteTasks.forEach((operator, tasks) -> operators.add(operator(deployed, operator, tasks)));
        return new TopologyVotes(topology, operators);
    }

    private TopologyVotes.Operator operator(DeployedTopology deployed, OperatorId operator, List<TaskSpec> tasks) {
        VoteConfig config = JSON.treeToValue(tasks.get(0).config(), VoteConfig.class);
        VersionSums sums = new VersionSums(config.versions(), config.window());
        List<TaskId> unavailable = new ArrayList<>();
        for (TaskSpec task : tasks) {
            Optional<List<VersionRecord>> records = records(deployed, task.id());
            if (records.isEmpty()) {
                unavailable.add(task.id());
            } else {
                sums.add(records.get());
            }
        }
        List<TopologyVotes.Version> versions = new ArrayList<>();
        for (int version = 0; version < config.versions(); version++) {
            OperatorId versionOperator = operator.version(version);
            String type = deployed.plan().tasksOf(versionOperator).stream().findFirst().map(TaskSpec::type)
                    .orElse("?");
            versions.add(sums.version(version, versionOperator, type,
                    failures.get().of(deployed.id(), versionOperator)));
        }
        return new TopologyVotes.Operator(operator, config.strategy(), versions, unavailable);
    }

    /** The vote task's records of its versions (none before it has voted), or empty if its host does not answer. */
    private Optional<List<VersionRecord>> records(DeployedTopology deployed, TaskId task) {
        Optional<RegisteredHost> host = Optional.ofNullable(deployed.placement().get(task)).flatMap(detector::host);
        if (host.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(VersionRecord.listOf(hostClient.queryTaskState(host.get(), task,
                    VersionRecord.TASK_STATE).orElse(null)));
        } catch (HostCallException | IllegalStateException e) {
            LOG.debug("The votes of task {} are unavailable: {}", task, e.getMessage());
            return Optional.empty();
        }
    }

    /** The records of one operator's vote tasks, added up per version. */
    private static final class VersionSums {

        private final int window;
        private final long[][] counts;
        private final Instant[] excludedSince;
        private final double[] weights;
        private int tasks;

        VersionSums(int versions, int window) {
            this.window = window;
            this.counts = new long[versions][3];
            this.excludedSince = new Instant[versions];
            this.weights = new double[versions];
        }

        void add(List<VersionRecord> records) {
            tasks++;
            for (int version = 0; version < counts.length; version++) {
                if (version >= records.size()) {
                    weights[version] += 1; // a task that has not voted yet weighs every version fully
                    continue;
                }
                VersionRecord record = records.get(version);
                counts[version][0] += record.agreed();
                counts[version][1] += record.outvoted();
                counts[version][2] += record.late();
                weights[version] += record.weight(window);
                if (record.excluded()) {
                    Instant since = Instant.ofEpochMilli(record.excludedSince());
                    if (excludedSince[version] == null || since.isBefore(excludedSince[version])) {
                        excludedSince[version] = since;
                    }
                }
            }
        }

        TopologyVotes.Version version(int version, OperatorId operator, String type, long failed) {
            long[] sum = counts[version];
            double weight = tasks == 0 ? 1 : weights[version] / tasks;
            return new TopologyVotes.Version(version, operator, type, sum[0], sum[1], sum[2], failed,
                    excludedSince[version], weight);
        }
    }
}

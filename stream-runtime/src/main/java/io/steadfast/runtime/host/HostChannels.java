package io.steadfast.runtime.host;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.LogSegment;
import io.steadfast.runtime.dataplane.OutboundChannel;
import io.steadfast.runtime.dataplane.Retention;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.ExecutionPlan;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.RecoveryMode;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.task.FrameSender;
import io.steadfast.runtime.task.StreamTask;
import io.steadfast.runtime.topology.TopologyId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data-plane channels of a host's tasks to other hosts, by topology: opens and closes them, points them at tasks
 * moved by a local recovery, refuses the earlier incarnations of the tasks they connect to, and names the host behind
 * a connection that dropped. Thread-safe; the runtime serialises what changes them.
 */
final class HostChannels {

    private static final Logger LOG = LoggerFactory.getLogger(HostChannels.class);

    private final HostId id;
    private final DataPlane dataPlane;
    private final Map<TopologyId, List<ChannelId>> channelsByTopology = new ConcurrentHashMap<>();
    private final Map<ChannelId, OutboundChannel> outboundChannels = new ConcurrentHashMap<>();
    /** The lowest incarnation of each task elsewhere that this host's tasks take input from, once it was fenced. */
    private final Map<TaskId, Integer> senderFences = new ConcurrentHashMap<>();
    /** The host of every peer data-plane endpoint in a placement deployed here, to name a peer that dropped. */
    private final Map<String, HostId> hostsByEndpoint = new ConcurrentHashMap<>();

    HostChannels(HostId id, DataPlane dataPlane) {
        this.id = id;
        this.dataPlane = dataPlane;
    }

    boolean has(TopologyId topology) {
        return channelsByTopology.containsKey(topology);
    }

    Set<TopologyId> topologies() {
        return new TreeSet<>(channelsByTopology.keySet());
    }

    /** The topology's tasks here opened {@code opened} too, and learned the peers of {@code placement}. */
    void opened(TopologyId topology, List<ChannelId> opened, TaskPlacement placement) {
        channelsByTopology.computeIfAbsent(topology, t -> new ArrayList<>()).addAll(opened);
        placement.endpoints().forEach(this::learnPeer);
    }

    /** @param incarnation the sending task's incarnation: receivers that know a newer one refuse its frames */
    FrameSender openOutbound(ChannelId channel, String endpoint, long nextSeq, RecoveryMode mode,
                             int incarnation) {
        Retention retention = mode.logsOutput() ? Retention.UNTIL_TRUNCATED : Retention.UNTIL_CONSUMED;
        OutboundChannel outbound = dataPlane.openOutbound(channel, endpoint, nextSeq, retention, incarnation);
        outboundChannels.put(channel, outbound);
        return new DataPlaneFrameSender(outbound);
    }

    /** Loads what a channel's sender logged before into the channel's output log, to replay first. */
    void preloadLog(ChannelId channel, List<LogSegment> segments) {
        outboundChannels.get(channel).preloadLog(segments);
    }

    /**
     * The receiving task of an outbound channel of this host now runs at {@code endpoint}: the channel
     * synchronises with it and replays what it lacks from the output log.
     *
     * @throws IllegalArgumentException if this host has no such outbound channel
     */
    void redirect(ChannelId channel, String endpoint) {
        OutboundChannel outbound = outboundChannels.get(channel);
        if (outbound == null) {
            throw new IllegalArgumentException("host " + id + " has no outbound channel " + channel);
        }
        outbound.redirect(endpoint);
    }

    /**
     * Redirects every outbound channel of this host towards one of {@code newEndpoints}' tasks (moved there by a local
     * recovery) to that task's new endpoint, and learns the host behind each new endpoint ({@code hosts}): a
     * connection there that drops is then reported as that host's ({@link #onPeerHostDisconnected}). A host that took
     * over tasks and died later is then found before its heartbeats are missed. The moved tasks run as
     * {@code incarnations} now: from
     * then on this host refuses what their earlier incarnations send on the channels into its tasks, and what they
     * answer on its channels towards them. Refused before this returns, so that what this host holds of their
     * decisions, read after, is all it will ever take in of the earlier incarnations.
     *
     * @param plan  the topology's plan here (null: none, nothing is redirected)
     * @param tasks the tasks that run here
     * @return the last sequence number sent on each channel redirected
     */
    Map<ChannelId, Long> redirectChannelsTo(TopologyId topology, ExecutionPlan plan,
                                            Map<TaskId, String> newEndpoints, Map<String, HostId> hosts,
                                            Map<TaskId, Integer> incarnations, Collection<StreamTask> tasks) {
        hosts.forEach((endpoint, host) -> learnPeer(host, endpoint));
        if (plan == null) {
            return Map.of();
        }
        fenceChannelsFrom(plan, incarnations, tasks);
        Map<ChannelId, Long> heads = new TreeMap<>();
        for (ChannelId channel : outboundChannelsTo(plan, newEndpoints.keySet())) {
            TaskId receiver = plan.channel(channel).orElseThrow().to();
            heads.put(channel, outboundChannels.get(channel).nextSeq() - 1);
            redirect(channel, newEndpoints.get(receiver));
            Integer incarnation = incarnations.get(receiver);
            if (incarnation != null) {
                dataPlane.fenceOutbound(channel, incarnation);
            }
        }
        if (!heads.isEmpty()) {
            // one line per redirect: a host of a large job has hundreds of channels towards a failed host's tasks
            LOG.info("Host {} redirected {} channels of topology '{}' towards {} moved tasks", id, heads.size(),
                    topology, newEndpoints.size());
        }
        return heads;
    }

    /**
     * Readies this host to answer what it holds of {@code task}'s decisions to the task's incarnation
     * {@code incarnation} (recovering it elsewhere): refuses the task's earlier incarnations on its channels into tasks
     * here first, as a redirect does, so that the answer is all this host will ever take in of them.
     *
     * @return false, and nothing fenced, if this host knows a newer incarnation of the task: the one asking was
     *         superseded, and its recovery must not go on from what this host holds
     */
    boolean fenceForDecisionsOf(TaskId task, int incarnation, ExecutionPlan plan,
                                Collection<StreamTask> tasks) {
        if (senderFences.getOrDefault(task, 0) > incarnation) {
            return false;
        }
        if (plan != null) {
            fenceChannelsFrom(plan, Map.of(task, incarnation), tasks);
        }
        return true;
    }

    /** Refuses, on every channel from one of {@code incarnations}' tasks into a task here, its earlier incarnations. */
    private void fenceChannelsFrom(ExecutionPlan plan, Map<TaskId, Integer> incarnations,
                                   Collection<StreamTask> tasks) {
        if (incarnations.isEmpty()) {
            return;
        }
        incarnations.forEach((task, incarnation) -> senderFences.merge(task, incarnation, Math::max));
        for (StreamTask task : List.copyOf(tasks)) {
            plan.task(task.id()).ifPresent(spec -> spec.inputs().forEach(input -> {
                Integer incarnation = incarnations.get(input.from());
                if (incarnation != null) {
                    dataPlane.fenceInbound(input.channel(), incarnation);
                }
            }));
        }
    }

    /** The outbound data-plane channels of this host whose receiving end is one of {@code receivers}. */
    List<ChannelId> outboundChannelsTo(ExecutionPlan plan, Set<TaskId> receivers) {
        return outboundChannels.keySet().stream()
                .filter(channel -> plan.channel(channel).map(spec -> receivers.contains(spec.to())).orElse(false))
                .sorted(Comparator.comparingInt(ChannelId::index)).toList();
    }

    /** Learns that {@code endpoint} is {@code host}'s data plane (this host's own left out). */
    void learnPeer(HostId host, String endpoint) {
        if (!host.equals(id)) {
            hostsByEndpoint.put(endpoint, host);
        }
    }

    /**
     * Tells {@code listener} of every peer host whose data-plane connection from this host dropped: a hint that
     * the peer may be dead (see {@link io.steadfast.runtime.dataplane.PeerListener}). The peer is named from the
     * placements deployed or recovered here and the hosts named with redirects; drops of endpoints none of them named
     * are ignored. Called on the data plane's IO thread: hand off and return.
     */
    void onPeerHostDisconnected(Consumer<HostId> listener) {
        dataPlane.addPeerListener(endpoint -> {
            HostId peer = hostsByEndpoint.get(endpoint);
            if (peer == null) {
                LOG.debug("Host {}: connection to {} dropped, which no placement here names", id, endpoint);
            } else {
                listener.accept(peer);
            }
        });
    }

    /** Forgets the topology's channels and fences; null if none were opened. Close them once its tasks stopped. */
    List<ChannelId> forget(TopologyId topology) {
        List<ChannelId> channels = channelsByTopology.remove(topology);
        if (channels != null) {
            senderFences.keySet().removeIf(task -> task.topology().equals(topology));
        }
        return channels;
    }

    void close(List<ChannelId> channels) {
        for (ChannelId channel : channels) {
            outboundChannels.remove(channel);
            dataPlane.closeOutbound(channel);
            dataPlane.closeInbound(channel);
        }
    }
}

package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * The single IO thread of a {@link DataPlane}: it owns the ZeroMQ context, the ROUTER every peer sends to, one
 * DEALER per peer endpoint and all channel state. It blocks in the poller (wake-up pipe, ROUTER, DEALERs) with a
 * timeout bounded by the resync timer, runs submitted commands, has {@link IncomingMessages} decode and dispatch what
 * arrived, sends what the pass queued, and never lets an exception out of the loop. Other threads interact only
 * through {@link #submit(Runnable)}.
 */
final class IoLoop implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(IoLoop.class);
    /**
     * After a pass that handled fewer than this many commands and messages, the loop waits {@link #COALESCE_NANOS}
     * before the next one, so that the next pass finds several: a trickle on many channels (a job of many tasks at a
     * modest rate) would otherwise wake the loop once per frame, ACK and command, and each pass costs a system call
     * per socket (JeroMQ checks every socket's mailbox). With 32 tasks at 20,000 events/s this keeps the IO thread at
     * about 4 % of a core per host instead of 14-15 %. A busy loop (a backlog, full frames) never waits; a frame waits
     * at most this long more on each side of the wire.
     */
    private static final int COALESCE_BELOW = 32;
    private static final long COALESCE_NANOS = 500_000;
    private static final int ROUTER_MAX_MESSAGE_SLACK = 64 * 1024;

    private final DataPlaneConfig config;
    private final DataPlaneMetrics metrics;
    private final OutputLogs outputLogs;
    private final byte[] routingId;
    /** Asked before every message sent; a gate set later applies to the connections made after. */
    private volatile TransmitGate gate = TransmitGate.OPEN;
    /** When the IO thread last ran its timer pass (at least every {@code timerPeriodNanos} while it runs). */
    private volatile long lastTimerPassNanos = System.nanoTime();
    private final IoCommandQueue commands = new IoCommandQueue();
    private final CompletableFuture<String> bound = new CompletableFuture<>();
    private final RateLimitedWarning fencedWarning = new RateLimitedWarning(log);
    private final RecentlyClosedChannels recentlyClosed = new RecentlyClosedChannels();
    private final List<PeerListener> peerListeners = new CopyOnWriteArrayList<>();
    private final long timerPeriodNanos;

    // IO thread only
    private ZContext context;
    private ZMQ.Socket router;
    private ZMQ.Poller poller;
    private boolean pollerStale = true;
    private final List<PeerConnection> polledPeers = new ArrayList<>();
    private final Map<String, PeerConnection> peers = new HashMap<>();
    private final Map<ChannelId, OutboundChannelState> outbound = new HashMap<>();
    private final Map<ChannelId, InboundChannelState> inbound = new HashMap<>();
    /** Replies queued in this pass, by the routing id of the sender they go to. */
    private final Map<RoutingId, WireBatch> replies = new HashMap<>();
    private final IncomingMessages incoming;
    private boolean running = true;
    private boolean busy;
    private long nextTimerNanos = System.nanoTime();

    IoLoop(DataPlaneConfig config, DataPlaneMetrics metrics, FrameCodec codec, OutputLogs outputLogs,
            byte[] routingId) {
        this.config = config;
        this.metrics = metrics;
        this.outputLogs = outputLogs;
        this.routingId = routingId;
        this.timerPeriodNanos = Math.max(1_000_000L, config.resyncInterval().toNanos() / 4);
        this.incoming = new IncomingMessages(codec, metrics, outbound, inbound, recentlyClosed, this::endpointForLog);
    }

    /** Completes with the bound endpoint once the ROUTER is listening, or exceptionally if binding failed. */
    CompletableFuture<String> bound() {
        return bound;
    }

    /** Any thread; the listener is called on the IO thread. */
    void addPeerListener(PeerListener listener) {
        peerListeners.add(listener);
    }

    /** Any thread. */
    void submit(Runnable command) {
        commands.submit(command);
    }

    /**
     * How long the IO thread has gone without a timer pass, beyond the period it runs one at; 0 while it keeps its
     * period. Any thread.
     */
    long stalledNanos(long nowNanos) {
        return Math.max(0, nowNanos - lastTimerPassNanos - timerPeriodNanos);
    }

    @Override
    public void run() {
        try {
            bind();
        } catch (RuntimeException e) {
            bound.completeExceptionally(e);
            shutDown();
            return;
        }
        try {
            while (running) {
                runOnce();
            }
        } finally {
            shutDown();
        }
    }

    private void bind() {
        context = new ZContext(1);
        context.setLinger(0);
        router = context.createSocket(SocketType.ROUTER);
        router.setLinger(0);
        router.setRouterHandover(true);
        router.setHandshakeIvl(PeerConnection.HANDSHAKE_TIMEOUT_MILLIS);
        router.setHeartbeatIvl((int) config.heartbeatInterval().toMillis());
        router.setHeartbeatTimeout((int) config.heartbeatTimeout().toMillis());
        router.setMaxMsgSize(2L * config.maxFrameBytes() + ROUTER_MAX_MESSAGE_SLACK);
        try {
            router.bind(config.bindAddress());
        } catch (ZMQException e) {
            throw new IllegalStateException("Data plane could not bind " + config.bindAddress() + ": "
                    + e.getMessage() + ". If the port is in use, stop the other process or choose another port "
                    + "in DataPlaneConfig.bindAddress", e);
        }
        String endpoint = router.getLastEndpoint();
        Thread.currentThread().setName("steadfast-dataplane-io-" + endpoint.substring(endpoint.lastIndexOf(':') + 1));
        log.info("Data plane listening on {}", endpoint);
        lastTimerPassNanos = System.nanoTime();
        bound.complete(endpoint);
    }

    private void runOnce() {
        try {
            if (pollerStale) {
                rebuildPoller();
            }
            long now = System.nanoTime();
            long timeoutMillis = busy ? 0 : Math.max(1, (nextTimerNanos - now + 999_999) / 1_000_000);
            poller.poll(timeoutMillis);
            int work = commands.runAll(poller.pollin(0)); // index 0: the wake-up channel (see rebuildPoller)
            if (!running) {
                return;
            }
            if (pollerStale) {
                // a command may have closed a peer's socket: never read a socket that this pass closed
                rebuildPoller();
            }
            // Read every socket on every pass instead of trusting pollin(), and after a pass that did any work
            // poll again without blocking: a ZeroMQ socket's readiness is signalled through its mailbox, and our
            // own sends on the same socket can swallow that signal. An empty non-blocking recv is cheap; a missed
            // ACK would stall a channel until the next timer.
            work += incoming.readRouter(router);
            for (int i = 0; i < polledPeers.size(); i++) {
                work += incoming.readDealer(polledPeers.get(i));
                readConnectionEvents(polledPeers.get(i));
            }
            now = System.nanoTime();
            if (now - nextTimerNanos >= 0) {
                for (OutboundChannelState channel : outbound.values()) {
                    channel.onTimer(now);
                }
                for (InboundChannelState channel : inbound.values()) {
                    channel.onTimer();
                }
                nextTimerNanos = now + timerPeriodNanos;
                lastTimerPassNanos = now;
            }
            sendBatches();
            busy = work > 0;
            if (busy && work < COALESCE_BELOW) { // see COALESCE_BELOW
                LockSupport.parkNanos(COALESCE_NANOS);
            }
        } catch (RuntimeException e) {
            metrics.ioLoopErrors.increment();
            log.error("Data plane IO loop caught an unexpected error; continuing", e);
        }
    }

    private void rebuildPoller() {
        if (poller != null) {
            poller.close();
        }
        polledPeers.clear();
        polledPeers.addAll(peers.values());
        poller = context.createPoller(2 + 2 * polledPeers.size());
        poller.register(commands.wakeUpChannel(), ZMQ.Poller.POLLIN);
        poller.register(router, ZMQ.Poller.POLLIN);
        for (PeerConnection peer : polledPeers) {
            poller.register(peer.socket(), ZMQ.Poller.POLLIN);
            poller.register(peer.monitorSocket(), ZMQ.Poller.POLLIN);
        }
        pollerStale = false;
    }

    private void readConnectionEvents(PeerConnection peer) {
        if (!peer.readDisconnects()) {
            return;
        }
        log.info("Data plane {} lost its connection to peer {}; reconnecting (telling {} listener(s))",
                endpointForLog(), peer.endpoint(), peerListeners.size());
        for (PeerListener listener : peerListeners) {
            try {
                listener.onPeerDisconnected(peer.endpoint());
            } catch (RuntimeException e) {
                log.error("A peer listener threw on the disconnect of {}; listeners must not throw", peer.endpoint(), e);
            }
        }
    }

    /** Logs a message dropped as coming from a superseded incarnation, at most every few seconds for the data plane. */
    void warnFenced(long nowNanos, String format, Object... arguments) {
        fencedWarning.warn(nowNanos, format, arguments);
    }

    /** Queues a reply to the sender with this routing id; it goes when the pass ends, with the others to it. */
    void replyToSender(byte[] sender, byte[] message) {
        WireBatch batch = replies.computeIfAbsent(new RoutingId(sender), id -> new WireBatch());
        if (batch.add(message, null)) {
            batch.sendOn(router, sender, gate, metrics);
        }
    }

    /**
     * Sends what this pass queued, one ZeroMQ message per destination. ROUTER without ROUTER_MANDATORY: replies to
     * unknown or congested peers are dropped silently, and the sender's SYNC timer recovers; a batch a DEALER
     * refuses is recovered the same way.
     */
    private void sendBatches() {
        for (PeerConnection peer : peers.values()) {
            peer.flush();
        }
        if (!replies.isEmpty()) {
            replies.forEach((sender, batch) -> batch.sendOn(router, sender.value(), gate, metrics));
            replies.clear();
        }
    }

    /** A ZeroMQ routing id, compared by content. */
    private record RoutingId(byte[] value) {

        @Override
        public boolean equals(Object other) {
            return other instanceof RoutingId id && Arrays.equals(value, id.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return Arrays.toString(value);
        }
    }

    // ---------------------------------------------------------------- commands (IO thread)

    void openOutbound(OutboundChannelState channel, String peerEndpoint) {
        outbound.put(channel.id(), channel);
        recentlyClosed.reopened(channel.id());
        channel.connectTo(peerFor(peerEndpoint, channel), System.nanoTime());
        log.debug("Opened outbound channel {} to {} at seq {}", channel.id(), peerEndpoint, channel.nextSeq());
    }

    void redirectOutbound(OutboundChannelState channel, String newPeerEndpoint) {
        if (outbound.get(channel.id()) != channel) {
            return;
        }
        PeerConnection old = channel.peer();
        detach(channel, old);
        channel.connectTo(peerFor(newPeerEndpoint, channel), System.nanoTime());
        log.debug("Redirected outbound channel {} from {} to {}", channel.id(), old.endpoint(), newPeerEndpoint);
    }

    void closeOutbound(ChannelId id) {
        OutboundChannelState channel = outbound.remove(id);
        if (channel != null) {
            channel.discardRetained();
            detach(channel, channel.peer());
            recentlyClosed.closed(id, System.nanoTime());
        }
    }

    void openInbound(InboundChannelState channel) {
        inbound.put(channel.id(), channel);
        recentlyClosed.reopened(channel.id());
        IncomingMessages.EarlySync early = incoming.takeEarlySync(channel.id());
        if (early != null) {
            channel.onSync(early.sender(), early.senderIncarnation(), System.nanoTime());
        }
        log.debug("Opened inbound channel {}{}", channel.id(), early == null ? "" : ", answering its early SYNC");
    }

    void fenceInbound(ChannelId id, int minSenderIncarnation) {
        InboundChannelState channel = inbound.get(id);
        if (channel != null) {
            channel.fence(minSenderIncarnation);
        }
    }

    void fenceOutbound(ChannelId id, int minReceiverIncarnation) {
        OutboundChannelState channel = outbound.get(id);
        if (channel != null) {
            channel.fence(minReceiverIncarnation, System.nanoTime());
        }
    }

    void closeInbound(ChannelId id) {
        if (inbound.remove(id) != null) {
            recentlyClosed.closed(id, System.nanoTime());
        }
        incoming.forgetEarlySync(id);
    }

    void stop() {
        running = false;
    }

    /** From now on, sends nothing while {@code gate} is closed; any thread, before the first peer connects. */
    void gate(TransmitGate gate) {
        this.gate = gate;
    }

    private PeerConnection peerFor(String endpoint, OutboundChannelState channel) {
        PeerConnection peer = peers.computeIfAbsent(endpoint, e -> {
            pollerStale = true;
            log.debug("Connecting data plane DEALER to {}", e);
            return new PeerConnection(context, e, routingId, config, gate, metrics);
        });
        peer.channels().add(channel);
        return peer;
    }

    private void detach(OutboundChannelState channel, PeerConnection peer) {
        peer.channels().remove(channel);
        if (peer.channels().isEmpty()) {
            peers.remove(peer.endpoint());
            peer.close();
            pollerStale = true;
        }
    }

    private String endpointForLog() {
        return router == null ? "(unbound)" : router.getLastEndpoint();
    }

    private void shutDown() {
        for (OutboundChannelState channel : outbound.values()) {
            channel.markClosed();
            channel.discardRetained();
        }
        outbound.clear();
        inbound.clear();
        outputLogs.close();
        try {
            if (poller != null) {
                poller.close();
            }
            for (PeerConnection peer : peers.values()) {
                peer.close();
            }
            peers.clear();
            if (router != null) {
                router.close();
            }
            if (context != null) {
                context.close();
            }
        } catch (RuntimeException e) {
            log.warn("Error while closing data plane sockets", e);
        } finally {
            commands.close();
            log.debug("Data plane IO thread stopped");
        }
    }
}

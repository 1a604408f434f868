package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZeroMQ data plane of one host process: reliable, ordered, exactly-once, credit-flow-controlled channels of
 * opaque frames between data planes.
 *
 * <p><b>Threading:</b> one IO thread, named {@code steadfast-dataplane-io-<port>}, owns every socket of this
 * instance: the ROUTER bound on {@link DataPlaneConfig#bindAddress()} that receives DATA and SYNC from all
 * peers, and one DEALER per peer endpoint that sends them and receives ACKs. All methods of this class may be
 * called from any thread; they hand work to the IO thread through a queue and a wake-up pipe.
 *
 * <p><b>Life cycle:</b> {@link #start} binds and returns a running instance; {@link #close()} stops the IO thread
 * with a message, closes all sockets with linger 0 and waits for the thread up to
 * {@link DataPlaneConfig#closeTimeout()}. Channels cannot be opened after close. Output logs that exceed their
 * memory bound spill into a directory of this instance's own, which close deletes.
 *
 * <p><b>Reliability:</b> a sender retains each frame until the receiver reports it consumed; after silence, a
 * reconnect or {@link OutboundChannel#redirect} it sends SYNC and resends from the receiver's position. A
 * receiver restarted on the same endpoint resumes from the {@code lastDeliveredSeq} passed to
 * {@link #openInbound}. Every message carries a checksum (CRC32C, see {@code FrameCodec}): a damaged one is dropped
 * before it can move any position, and resent.
 *
 * <p><b>Incarnations:</b> a task that is recovered runs as a new incarnation, numbered one higher each time; the
 * numbers of both ends travel on the wire. A receiver refuses DATA and SYNC from sending tasks below its channel's
 * minimum sender incarnation ({@link #openInbound(ChannelId, long, InboundListener, int, int)},
 * {@link #fenceInbound}), and a message of a newer sender raises the minimum by itself; a sender refuses positions
 * from receiving tasks below its minimum receiver incarnation ({@link #fenceOutbound}), likewise raised by a newer
 * receiver's. Refused messages are counted in {@link DataPlaneMetrics#fencedMessagesDropped()}. Callers that know no
 * incarnations use the overloads without them: every incarnation is then 0, and nothing is ever refused.
 */
public final class DataPlane implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DataPlane.class);

    private final DataPlaneConfig config;
    private final DataPlaneMetrics metrics;
    private final IoLoop loop;
    private final OutputLogs outputLogs;
    private final ChannelContext channels;
    private final Thread ioThread;
    private final String endpoint;
    private final Map<ChannelId, OutboundChannelState> outbound = new ConcurrentHashMap<>();
    private final Map<ChannelId, InboundChannelState> inbound = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private DataPlane(ChannelContext channels, Thread ioThread, String endpoint) {
        this.config = channels.config();
        this.metrics = channels.metrics();
        this.loop = channels.loop();
        this.outputLogs = channels.outputLogs();
        this.channels = channels;
        this.ioThread = ioThread;
        this.endpoint = endpoint;
    }

    /**
     * Binds the ROUTER and starts the IO thread; output logs are not shipped anywhere.
     *
     * @throws IllegalStateException if binding fails (e.g. the port is in use) or does not finish in time
     */
    public static DataPlane start(DataPlaneConfig config) {
        return start(config, OutputLogSink.NONE);
    }

    /**
     * Binds the ROUTER and starts the IO thread. What the output logs ({@link Retention#UNTIL_TRUNCATED}) record
     * goes to {@code outputLogSink} on the IO thread: frames in batches of up to about 256 KiB, handed off at least
     * every 50 ms while frames are logged, and every truncation.
     *
     * @throws IllegalStateException if binding fails (e.g. the port is in use) or does not finish in time
     */
    public static DataPlane start(DataPlaneConfig config, OutputLogSink outputLogSink) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(outputLogSink, "outputLogSink");
        DataPlaneMetrics metrics = new DataPlaneMetrics();
        FrameCodec codec = new FrameCodec(config.maxFrameBytes());
        OutputLogs outputLogs = new OutputLogs(config.outputLog(), metrics, codec, outputLogSink);
        IoLoop loop = new IoLoop(config, metrics, codec, outputLogs, newRoutingId());
        Thread thread = new Thread(loop, "steadfast-dataplane-io-binding");
        thread.setDaemon(true);
        thread.start();
        String endpoint;
        try {
            endpoint = loop.bound().get(config.closeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("Data plane failed to start on " + config.bindAddress(), e.getCause());
        } catch (TimeoutException e) {
            loop.submit(loop::stop);
            throw new IllegalStateException("Data plane did not bind " + config.bindAddress() + " within "
                    + config.closeTimeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loop.submit(loop::stop);
            throw new IllegalStateException("Interrupted while starting the data plane", e);
        }
        return new DataPlane(new ChannelContext(loop, codec, metrics, outputLogs, config), thread,
                config.advertised(endpoint));
    }

    /** A routing id unique to this instance, so receivers can route ACKs back and tell restarts apart. */
    private static byte[] newRoutingId() {
        UUID uuid = UUID.randomUUID();
        // ZeroMQ reserves routing ids starting with a zero byte
        return ByteBuffer.allocate(17).put((byte) 'S').putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array();
    }

    /**
     * The endpoint the ROUTER actually bound, e.g. {@code tcp://127.0.0.1:41234}, with its host replaced by the
     * configured {@link DataPlaneConfig#advertisedHost} if any; give it to senders.
     */
    public String endpoint() {
        return endpoint;
    }

    public DataPlaneConfig config() {
        return config;
    }

    /**
     * Opens the sending end of a channel towards the data plane at {@code peerEndpoint} (which may be this one),
     * retaining frames until consumed.
     *
     * @param nextSeq sequence number of the next event to send: 1 for a new channel
     * @throws IllegalStateException if the channel is already open here or the data plane is closed
     */
    public OutboundChannel openOutbound(ChannelId id, String peerEndpoint, long nextSeq) {
        return openOutbound(id, peerEndpoint, nextSeq, Retention.UNTIL_CONSUMED);
    }

    /**
     * Opens the sending end of a channel towards the data plane at {@code peerEndpoint} (which may be this one), for
     * a sending task of incarnation 0.
     *
     * @param nextSeq   sequence number of the next event to send: 1 for a new channel
     * @param retention how long sent frames are kept for resending
     * @throws IllegalStateException if the channel is already open here or the data plane is closed
     */
    public OutboundChannel openOutbound(ChannelId id, String peerEndpoint, long nextSeq, Retention retention) {
        return openOutbound(id, peerEndpoint, nextSeq, retention, 0);
    }

    /**
     * Opens the sending end of a channel towards the data plane at {@code peerEndpoint} (which may be this one).
     *
     * @param nextSeq     sequence number of the next event to send: 1 for a new channel
     * @param retention   how long sent frames are kept for resending
     * @param incarnation the sending task's incarnation (>= 0), written on every DATA, BUNDLE and SYNC of the channel:
     *                    a receiver that knows a newer one refuses them
     * @throws IllegalArgumentException if {@code incarnation} &lt; 0 or {@code nextSeq} &lt; 1
     * @throws IllegalStateException    if the channel is already open here or the data plane is closed
     */
    public OutboundChannel openOutbound(ChannelId id, String peerEndpoint, long nextSeq, Retention retention,
            int incarnation) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(peerEndpoint, "peerEndpoint");
        requireOpen();
        OutboundChannelState channel = new OutboundChannelState(id, incarnation, nextSeq, retention, channels);
        if (outbound.putIfAbsent(id, channel) != null) {
            throw new IllegalStateException("Outbound channel " + id + " is already open on data plane " + endpoint
                    + "; close it first");
        }
        loop.submit(() -> loop.openOutbound(channel, peerEndpoint));
        return channel;
    }

    /**
     * Opens the receiving end of a channel for a receiving task of incarnation 0, taking senders of any incarnation
     * (see {@link #openInbound(ChannelId, long, InboundListener, int, int)}).
     *
     * @throws IllegalStateException if the channel is already open here or the data plane is closed
     */
    public void openInbound(ChannelId id, long lastDeliveredSeq, InboundListener listener) {
        openInbound(id, lastDeliveredSeq, listener, 0, 0);
    }

    /**
     * Opens the receiving end of a channel. Frames are delivered to {@code listener} in order, exactly once,
     * starting with the event after {@code lastDeliveredSeq} (0 for a new channel), from sending tasks of incarnation
     * {@code minSenderIncarnation} or later only. A message of a later incarnation raises the minimum to it.
     *
     * @param receiverIncarnation  the receiving task's incarnation (>= 0), written on every ACK and SYNC_REPLY: a
     *                             sender that knows a newer one refuses them
     * @param minSenderIncarnation the oldest sending task's incarnation (>= 0) taken
     * @throws IllegalArgumentException if an incarnation is negative, or {@code lastDeliveredSeq} is
     * @throws IllegalStateException    if the channel is already open here or the data plane is closed
     */
    public void openInbound(ChannelId id, long lastDeliveredSeq, InboundListener listener, int receiverIncarnation,
            int minSenderIncarnation) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(listener, "listener");
        requireOpen();
        InboundChannelState channel = new InboundChannelState(id, lastDeliveredSeq, receiverIncarnation,
                minSenderIncarnation, listener, channels);
        if (inbound.putIfAbsent(id, channel) != null) {
            throw new IllegalStateException("Inbound channel " + id + " is already open on data plane " + endpoint
                    + "; close it first");
        }
        loop.submit(() -> loop.openInbound(channel));
    }

    /**
     * Puts nothing on the wire from now on while {@code gate} is closed (see {@link TransmitGate}); call it before
     * opening channels.
     */
    public void gateTransmissions(TransmitGate gate) {
        loop.gate(Objects.requireNonNull(gate, "gate"));
    }

    /** Closes the sending end; frames not yet consumed by the receiver are discarded. No-op if not open. */
    public void closeOutbound(ChannelId id) {
        OutboundChannelState channel = outbound.remove(id);
        if (channel != null) {
            channel.markClosed();
            loop.submit(() -> loop.closeOutbound(id));
        }
    }

    /** Closes the receiving end; later frames for it are dropped as unknown. No-op if not open. */
    public void closeInbound(ChannelId id) {
        InboundChannelState channel = inbound.remove(id);
        if (channel != null) {
            channel.markClosed();
            CompletableFuture<Void> closedOnIoThread = new CompletableFuture<>();
            loop.submit(() -> {
                loop.closeInbound(id);
                closedOnIoThread.complete(null);
            });
            awaitIoThread(closedOnIoThread, "closing inbound channel " + id);
        }
    }

    /**
     * From now on, refuses everything of the sending tasks of channel {@code id} below incarnation
     * {@code minSenderIncarnation}: their DATA, BUNDLE and SYNC are dropped (counted in
     * {@link DataPlaneMetrics#fencedMessagesDropped()}), never delivered, never answered. Raises the minimum, never
     * lowers it. Takes effect on the IO thread before this returns (as {@link #closeInbound} does), so that once it
     * returns no frame of an older incarnation is handed to the listener any more. If the sender the channel answered
     * is superseded, its ACKs wait until the new sender speaks (its SYNC). No-op if the channel is not open here.
     *
     * @throws IllegalArgumentException if {@code minSenderIncarnation} &lt; 0
     */
    public void fenceInbound(ChannelId id, int minSenderIncarnation) {
        requireIncarnation(minSenderIncarnation, "minSenderIncarnation");
        if (inbound.containsKey(id)) {
            runOnIoThread(() -> loop.fenceInbound(id, minSenderIncarnation), "fencing inbound channel " + id);
        }
    }

    /**
     * From now on, refuses the positions (ACK, SYNC_REPLY) of the receiving tasks of channel {@code id} below
     * incarnation {@code minReceiverIncarnation}: they are dropped (counted in
     * {@link DataPlaneMetrics#fencedMessagesDropped()}) and move none of the sender's positions. Raises the minimum,
     * never lowers it. If the position the sender holds came from a superseded receiver, the channel sends nothing
     * more until the receiver at its endpoint answers its SYNC with a position of the minimum's incarnation or later,
     * then resends from there: for a receiver recovered in place at the same endpoint; one recovered elsewhere is
     * reached with {@link OutboundChannel#redirect} (which resynchronises in any case). Takes effect on the IO thread
     * before this returns. No-op if the channel is not open here.
     *
     * @throws IllegalArgumentException if {@code minReceiverIncarnation} &lt; 0
     */
    public void fenceOutbound(ChannelId id, int minReceiverIncarnation) {
        requireIncarnation(minReceiverIncarnation, "minReceiverIncarnation");
        if (outbound.containsKey(id)) {
            runOnIoThread(() -> loop.fenceOutbound(id, minReceiverIncarnation), "fencing outbound channel " + id);
        }
    }

    private static void requireIncarnation(int incarnation, String name) {
        if (incarnation < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + incarnation);
        }
    }

    /** Runs {@code command} on the IO thread and waits for it (see {@link #awaitIoThread}). */
    private void runOnIoThread(Runnable command, String what) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        loop.submit(() -> {
            try {
                command.run();
            } finally {
                done.complete(null);
            }
        });
        awaitIoThread(done, what);
    }

    /**
     * Waits until the IO thread has run a command, so that after {@code closeInbound} returns the listener is
     * never called again (a frame being delivered at that moment has been delivered by then). Returns at once
     * on the IO thread itself, or when the data plane is closed.
     */
    private void awaitIoThread(CompletableFuture<Void> done, String what) {
        if (Thread.currentThread().getName().startsWith("steadfast-dataplane-io-") || closed.get()) {
            return;
        }
        try {
            done.get(config.closeTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Data plane {}: IO thread did not confirm {} within {}", endpoint(), what, config.closeTimeout());
        }
    }

    public DataPlaneMetrics metrics() {
        return metrics;
    }

    /**
     * How long the IO thread has been stuck: the time since its last timer pass beyond the period it runs them at
     * (a quarter of the resync interval); 0 while it keeps that period, and once this data plane is closed. A stuck IO
     * thread moves no frame, ACK or resend of any channel while the host's other threads (its heartbeats) go on.
     */
    public Duration ioStalledFor() {
        return closed.get() ? Duration.ZERO : Duration.ofNanos(loop.stalledNanos(System.nanoTime()));
    }

    /**
     * Fault injection: the IO thread hangs for {@code length} as if stuck (in a blocking call, a lock, a livelock),
     * while the rest of the process goes on, so that a test or a drill sees what a gray failure of the data plane does.
     */
    public void injectIoStall(Duration length) {
        if (length.isNegative()) {
            throw new IllegalArgumentException("length must not be negative, was " + length);
        }
        log.warn("Data plane {}: fault injection stalls the IO thread for {} ms", endpoint(), length.toMillis());
        loop.submit(() -> {
            long until = System.nanoTime() + length.toNanos();
            for (long left = length.toNanos(); left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        });
    }

    /**
     * Tells {@code listener} of every drop of an established connection to a peer from now on, on the IO thread
     * (see {@link PeerListener} for what it must not do). Listeners cannot be removed; they live as long as this
     * data plane.
     */
    public void addPeerListener(PeerListener listener) {
        loop.addPeerListener(Objects.requireNonNull(listener, "listener"));
    }

    /** The live state of an outbound channel, for tests and gauges; null if not open. */
    OutboundChannelState outboundState(ChannelId id) {
        return outbound.get(id);
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("Data plane " + endpoint + " is closed");
        }
    }

    /**
     * Stops the IO thread, closes every socket (linger 0), deletes the spill files and waits up to the configured
     * close timeout.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        outbound.values().forEach(OutboundChannelState::markClosed);
        inbound.values().forEach(InboundChannelState::markClosed);
        loop.submit(loop::stop);
        try {
            ioThread.join(config.closeTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (ioThread.isAlive()) {
            log.error("Data plane {} IO thread did not stop within {}; its sockets may still be open", endpoint,
                    config.closeTimeout());
        } else {
            log.info("Data plane {} closed", endpoint);
        }
    }

    @Override
    public String toString() {
        return "DataPlane{" + endpoint + "}";
    }
}

package io.steadfast.runtime.dataplane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A wire that damages some of what it carries, between one sending data plane and one receiving data plane: the
 * sender's channels point at {@link #endpoint()}, a ROUTER, and every message goes on to the receiver through a
 * DEALER, the replies back the same way. It flips one bit in the payload part of every {@code payloadEvery}-th message
 * that carries one (DATA, BUNDLE), in the header of every {@code headerEvery}-th (past the type byte, so that framing
 * holds), and in every {@code replyEvery}-th ACK or SYNC_REPLY, each up to {@code maxDamaged} times. One thread owns
 * both sockets.
 */
final class DamagingProxy implements AutoCloseable {

    private final String receiverEndpoint;
    private final int payloadEvery;
    private final int headerEvery;
    private final int replyEvery;
    private final int maxDamaged;
    private final Thread thread;
    private final CompletableFuture<String> bound = new CompletableFuture<>();
    private final AtomicInteger damagedToReceiver = new AtomicInteger();
    private final AtomicInteger damagedToSender = new AtomicInteger();
    private volatile boolean stopped;
    private int dataMessages;
    private int replies;

    DamagingProxy(String receiverEndpoint, int payloadEvery, int headerEvery, int replyEvery, int maxDamaged) {
        this.receiverEndpoint = receiverEndpoint;
        this.payloadEvery = payloadEvery;
        this.headerEvery = headerEvery;
        this.replyEvery = replyEvery;
        this.maxDamaged = maxDamaged;
        this.thread = new Thread(this::run, "test-damaging-proxy");
        thread.start();
    }

    String endpoint() {
        return bound.join();
    }

    /** Messages to the receiver that were damaged: each must be dropped there as damaged. */
    int damagedToReceiver() {
        return damagedToReceiver.get();
    }

    /** Replies to the sender that were damaged. */
    int damagedToSender() {
        return damagedToSender.get();
    }

    private void run() {
        try (ZContext context = new ZContext()) {
            ZMQ.Socket front = context.createSocket(SocketType.ROUTER);
            front.setLinger(0);
            front.bind("tcp://127.0.0.1:*");
            ZMQ.Socket back = TestFrames.rawDealer(context, receiverEndpoint);
            bound.complete(front.getLastEndpoint());
            ZMQ.Poller poller = context.createPoller(2);
            poller.register(front, ZMQ.Poller.POLLIN);
            poller.register(back, ZMQ.Poller.POLLIN);
            byte[] sender = null;
            while (!stopped) {
                poller.poll(20);
                byte[] from;
                while ((from = front.recv(ZMQ.DONTWAIT)) != null) {
                    sender = from;
                    forward(readRest(front), back, null);
                }
                byte[] first;
                while ((first = back.recv(ZMQ.DONTWAIT)) != null) {
                    List<byte[]> parts = readRest(back);
                    parts.add(0, first);
                    if (sender != null) {
                        forward(parts, front, sender);
                    }
                }
            }
        } catch (RuntimeException e) {
            bound.completeExceptionally(e);
            if (!stopped) {
                throw e;
            }
        }
    }

    private static List<byte[]> readRest(ZMQ.Socket socket) {
        List<byte[]> parts = new ArrayList<>();
        while (socket.hasReceiveMore()) {
            parts.add(socket.recv(0));
        }
        return parts;
    }

    /** Sends the parts of one ZeroMQ message on, damaging some of the messages in it. */
    private void forward(List<byte[]> parts, ZMQ.Socket out, byte[] routingId) {
        for (int i = 0; i < parts.size(); i++) {
            byte[] header = parts.get(i);
            if (FrameCodec.announcesPayload(header) && i + 1 < parts.size()) {
                dataMessages++;
                if (dataMessages % payloadEvery == 0 && parts.get(i + 1).length > 0
                        && damagedToReceiver.get() < maxDamaged) {
                    parts.set(i + 1, flipped(parts.get(i + 1), dataMessages));
                    damagedToReceiver.incrementAndGet();
                } else if (dataMessages % headerEvery == 0 && damagedToReceiver.get() < maxDamaged) {
                    parts.set(i, flipped(header, dataMessages));
                    damagedToReceiver.incrementAndGet();
                }
                i++; // the payload part
            } else if (routingId != null) {
                replies++;
                if (replies % replyEvery == 0 && damagedToSender.get() < maxDamaged) {
                    parts.set(i, flipped(header, replies));
                    damagedToSender.incrementAndGet();
                }
            }
        }
        if (routingId != null) {
            out.send(routingId, ZMQ.SNDMORE);
        }
        for (int i = 0; i < parts.size(); i++) {
            out.send(parts.get(i), i < parts.size() - 1 ? ZMQ.SNDMORE : 0);
        }
    }

    /** A copy with one bit flipped, chosen by {@code seed}, past the first six bytes (of a header) if it has more. */
    private static byte[] flipped(byte[] bytes, int seed) {
        byte[] copy = bytes.clone();
        int skip = copy.length > 6 ? 6 : 0;
        int bit = Math.floorMod(seed * 7919, 8 * (copy.length - skip));
        copy[skip + bit / 8] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    @Override
    public void close() {
        stopped = true;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

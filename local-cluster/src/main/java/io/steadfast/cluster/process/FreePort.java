package io.steadfast.cluster.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Free TCP ports on 127.0.0.1. Racy by nature: the port is free when checked, and another process may take
 * it before the service binds it. Use only where a port must be known before a process starts (the router's
 * port, which hosts are told), and retry on a bind failure.
 */
public final class FreePort {

    private FreePort() {
    }

    /** A port the OS considers free right now. */
    public static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not pick a free port on 127.0.0.1", e);
        }
    }

    /**
     * Whether {@code port} on 127.0.0.1 can be bound right now by a server (with {@code SO_REUSEADDR}, as Tomcat
     * binds): a port another process listens on is not free, one with connections of a killed process in
     * TIME_WAIT is (a router restarted on its old port).
     */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

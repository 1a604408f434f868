package io.steadfast.voter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.steadfast.protocol.registration.Registered;
import io.steadfast.protocol.registration.Registration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stands in for the router over real HTTP on loopback, as far as a host's registration goes: it admits every host
 * that registers (a lease of ten seconds) and takes every heartbeat with nothing to run, and keeps the registrations.
 */
final class StandInRouter implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newSingleThreadExecutor(runnable ->
            new Thread(runnable, "stand-in-router"));
    private final List<Registration> registrations = new CopyOnWriteArrayList<>();

    StandInRouter() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/api/v1/hosts", this::answer);
        server.setExecutor(threads);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every registration taken so far, in order. */
    List<Registration> registrations() {
        return List.copyOf(registrations);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (exchange.getRequestMethod().equals("POST")) {
                Registration registration = JSON.readValue(exchange.getRequestBody(), Registration.class);
                registrations.add(registration);
                byte[] body = JSON.writeValueAsString(new Registered(registration.hostId(), "PT0.2S", "PT10S"))
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } else {
                exchange.sendResponseHeaders(204, -1); // a heartbeat taken; nothing to run
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

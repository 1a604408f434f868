package io.steadfast.host.recovery;

import io.steadfast.runtime.plan.TaskId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Collects a lost task's logged decisions from the live hosts that received its output: each holds a prefix
 * of the same log, so the longest is what the task replays. A host that does not answer in time is skipped:
 * another holds the same prefix or a longer one, or nobody saw the decisions it would have had.
 */
public final class DeterminantCollector {

    private static final Logger LOG = LoggerFactory.getLogger(DeterminantCollector.class);

    private final HttpClient http;
    private final Duration timeout;

    public DeterminantCollector(Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    /** The longest run of the task's determinants from {@code fromOffset} any of {@code peers} holds; empty if none. */
    public byte[] collect(List<URI> peers, TaskId task, long fromOffset) {
        byte[] longest = new byte[0];
        for (URI peer : peers) {
            Optional<byte[]> found = fetch(peer, task, fromOffset);
            if (found.isPresent() && found.get().length > longest.length) {
                longest = found.get();
            }
        }
        return longest;
    }

    private Optional<byte[]> fetch(URI peer, TaskId task, long fromOffset) {
        URI uri = UriComponentsBuilder.fromUri(peer).path("/api/v1/deployments/{topology}/determinants")
                .queryParam("task", task.toString()).queryParam("from", fromOffset)
                .buildAndExpand(task.topology().value()).encode().toUri();
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (java.io.IOException e) {
            LOG.warn("Host {} did not answer for the determinants of {} ({}); trying the others", peer, task,
                    e.toString());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}

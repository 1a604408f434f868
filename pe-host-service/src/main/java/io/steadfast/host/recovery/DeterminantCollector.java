package io.steadfast.host.recovery;

import io.steadfast.runtime.plan.TaskId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.Comparator;
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
        return collect(peers, Map.of(task, fromOffset)).get(task);
    }

    /**
     * For each task, the longest run of its determinants from its offset that any of {@code peers} holds (empty if
     * none). Every peer is asked for every task at once, so the whole takes about one round trip.
     */
    public Map<TaskId, byte[]> collect(List<URI> peers, Map<TaskId, Long> fromOffsets) {
        Map<TaskId, List<CompletableFuture<Optional<byte[]>>>> answers = new LinkedHashMap<>();
        fromOffsets.forEach((task, from) -> answers.put(task, peers.stream().map(peer -> fetch(peer, task, from))
                .toList()));
        Map<TaskId, byte[]> longest = new LinkedHashMap<>();
        answers.forEach((task, fromPeers) -> longest.put(task, fromPeers.stream().map(CompletableFuture::join)
                .flatMap(Optional::stream).max(Comparator.comparingInt(bytes -> bytes.length)).orElse(new byte[0])));
        return longest;
    }

    private CompletableFuture<Optional<byte[]>> fetch(URI peer, TaskId task, long fromOffset) {
        URI uri = UriComponentsBuilder.fromUri(peer).path("/api/v1/deployments/{topology}/determinants")
                .queryParam("task", task.toString()).queryParam("from", fromOffset)
                .buildAndExpand(task.topology().value()).encode().toUri();
        return http.sendAsync(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(response -> response.statusCode() == 200 ? Optional.of(response.body())
                        : Optional.<byte[]>empty())
                .exceptionally(e -> {
                    LOG.warn("Host {} did not answer for the determinants of {} ({}); trying the others", peer, task,
                            e.toString());
                    return Optional.empty();
                });
    }
}

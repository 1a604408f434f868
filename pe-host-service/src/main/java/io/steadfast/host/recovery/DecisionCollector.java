package io.steadfast.host.recovery;

import io.steadfast.host.config.ServiceClients;
import io.steadfast.runtime.concurrent.DaemonThreads;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.recovery.DecisionSpan;
import io.steadfast.runtime.recovery.HeldDecisions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.json.JsonMapper;

/**
 * Collects lost tasks' logged decisions from the live hosts that received their output: each holds a prefix of the
 * same log, so the longest is what a task replays. A host that does not answer in time is skipped: another holds the
 * same prefix or a longer one, or nobody saw the decisions it would have had.
 *
 * <p>Collection starts before the recovering host knows from which offset each task replays (that is in the
 * snapshot it is still fetching): {@link #prefetch} asks every peer for the earliest run it holds of each task, and
 * {@link Prefetched#from} cuts them at the snapshots' offsets, asking again from the offset only where no run held
 * it (a peer whose earliest run starts later, while parts of the log are still arriving out of order).
 */
public final class DecisionCollector {

    private static final Logger LOG = LoggerFactory.getLogger(DecisionCollector.class);
    /** The response header that says at which log offset the decisions in the body start. */
    public static final String FROM_HEADER = "Steadfast-Decisions-From";

    private static final JsonMapper JSON = JsonMapper.shared();
    /** Tasks named in one request's query string (about 3 KB of it; servers refuse request lines over 8 KB). */
    static final int TASKS_PER_REQUEST = 50;

    /**
     * Blocking requests, one per pooled thread: the JDK client's asynchronous requests passed each answer through
     * several threads, and on a loaded two-CPU machine sending three of them took up to 66 ms.
     */
    private final RestClient http;
    private final ExecutorService requests = Executors.newCachedThreadPool(
            new DaemonThreads("steadfast-decision-request"));

    public DecisionCollector(Duration timeout) {
        this.http = ServiceClients.client(timeout, timeout);
    }

    /**
     * Asks every peer, at once, for the earliest run it holds of each task's decisions: one request per peer for
     * all the tasks (one per task and peer made 30 requests at once when a host of a 32-task job failed, on two cores
     * busy with the recovery).
     */
    public Prefetched prefetch(List<URI> peers, Collection<TaskId> tasks) {
        return prefetch(peers, tasks, Map.of());
    }

    /**
     * As {@link #prefetch(List, Collection)}, for the tasks' recovering {@code incarnations} (every task, or none):
     * each peer refuses the tasks' earlier incarnations before it answers, and a peer that knows a newer incarnation
     * answers nothing (409).
     */
    public Prefetched prefetch(List<URI> peers, Collection<TaskId> tasks, Map<TaskId, Integer> incarnations) {
        Map<URI, CompletableFuture<Map<TaskId, HeldDecisions>>> byPeer = new LinkedHashMap<>();
        peers.forEach(peer -> byPeer.put(peer, earliest(peer, List.copyOf(tasks), incarnations)));
        return new Prefetched(byPeer, -1, incarnations);
    }

    /** The runs being fetched from the peers, to be cut at the offsets the snapshots give. */
    public final class Prefetched {

        /** Each peer's earliest runs of the tasks asked about, by task; a task it holds nothing of is left out. */
        private final Map<URI, CompletableFuture<Map<TaskId, HeldDecisions>>> byPeer;
        /** How many peers {@link #confirmedBy} asked again; -1 if these runs were not fetched ahead. */
        private final int askedAgain;
        /** The incarnation of each task asked about that recovers it, named in every request; empty if unknown. */
        private final Map<TaskId, Integer> incarnations;

        private Prefetched(Map<URI, CompletableFuture<Map<TaskId, HeldDecisions>>> byPeer, int askedAgain,
                           Map<TaskId, Integer> incarnations) {
            this.byPeer = byPeer;
            this.askedAgain = askedAgain;
            this.incarnations = Map.copyOf(incarnations);
        }

        /**
         * These runs where the peers still hold the same, asking again the peers that do not: each of {@code peers}
         * whose spans in {@code held} (what it reported holding once the failure was confirmed) are those of the
         * runs it answered here, for every one of {@code tasks}, is taken as it answered; any other (its log changed,
         * it did not answer, it reported nothing, or it was not asked) is asked now. The result is what
         * {@link #prefetch} would collect from {@code peers} at the moment they reported.
         */
        public Prefetched confirmedBy(Map<URI, Map<TaskId, DecisionSpan>> held, List<URI> peers,
                                      Collection<TaskId> tasks, Map<TaskId, Integer> incarnations) {
            Map<URI, CompletableFuture<Map<TaskId, HeldDecisions>>> confirmed = new LinkedHashMap<>();
            List<URI> stale = new ArrayList<>();
            for (URI peer : peers) {
                CompletableFuture<Map<TaskId, HeldDecisions>> answer = byPeer.get(peer);
                if (answer != null && held.containsKey(peer) && sameSpans(answer.join(), held.get(peer), tasks)) {
                    confirmed.put(peer, answer);
                } else {
                    stale.add(peer);
                }
            }
            if (!stale.isEmpty()) {
                LOG.debug("The decisions of {} fetched ahead from {} changed since; asking again", tasks, stale);
            }
            stale.forEach(peer -> confirmed.put(peer, earliest(peer, List.copyOf(tasks), incarnations)));
            return new Prefetched(confirmed, stale.size(), incarnations);
        }

        /** Whether these are runs fetched ahead, as {@link #confirmedBy} left them. */
        public boolean fetchedAhead() {
            return askedAgain >= 0;
        }

        /** How many peers {@link #confirmedBy} asked again; for the log. */
        public int askedAgain() {
            return Math.max(0, askedAgain);
        }

        /**
         * For each task, the longest run of its decisions from its offset among the answers in so far, without
         * asking again (empty if none covers the offset): a prefix of what {@link #from} gives once every answer is
         * in, or is confirmed, since every run a peer holds is a part of the task's one log.
         *
         * @param offsets each task's replay offset, from its snapshot
         */
        public Map<TaskId, byte[]> answeredFrom(Map<TaskId, Long> offsets) {
            List<Map<TaskId, HeldDecisions>> answered = byPeer.values().stream()
                    .filter(answer -> answer.isDone() && !answer.isCompletedExceptionally())
                    .map(CompletableFuture::join).toList();
            Map<TaskId, byte[]> known = new LinkedHashMap<>();
            offsets.forEach((task, offset) -> known.put(task, answered.stream().map(runs -> runs.get(task))
                    .filter(Objects::nonNull).map(run -> run.after(offset)).flatMap(Optional::stream)
                    .max(Comparator.comparingInt(bytes -> bytes.length)).orElse(new byte[0])));
            return known;
        }

        /**
         * For each task, the longest run of its decisions from its offset that any peer holds (empty if none).
         *
         * @param offsets each task's replay offset, from its snapshot
         */
        public Map<TaskId, byte[]> from(Map<TaskId, Long> offsets) {
            Map<URI, Map<TaskId, HeldDecisions>> answers = new LinkedHashMap<>();
            byPeer.forEach((peer, answer) -> answers.put(peer, answer.join()));
            Map<TaskId, byte[]> longest = new LinkedHashMap<>();
            offsets.forEach((task, offset) -> {
                List<HeldDecisions> held = answers.values().stream().map(runs -> runs.get(task))
                        .filter(Objects::nonNull).toList();
                if (held.stream().anyMatch(run -> run.from() > offset)) {
                    LOG.debug("A peer's earliest decisions of {} start after offset {}; asking from it", task,
                            offset);
                    held = answers.keySet().stream().map(peer -> fetch(peer, task, offset, incarnations.get(task)))
                            .toList().stream()
                            .map(CompletableFuture::join).flatMap(Optional::stream).toList();
                }
                longest.put(task, held.stream().map(run -> run.after(offset)).flatMap(Optional::stream)
                        .max(Comparator.comparingInt(bytes -> bytes.length)).orElse(new byte[0]));
            });
            return longest;
        }
    }

    /** Whether the runs answered span what {@code held} says, for each task: the same offsets, or none in both. */
    private static boolean sameSpans(Map<TaskId, HeldDecisions> answered, Map<TaskId, DecisionSpan> held,
                                     Collection<TaskId> tasks) {
        for (TaskId task : tasks) {
            HeldDecisions run = answered.get(task);
            if (!Objects.equals(run == null ? null : DecisionSpan.of(run), held.get(task))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The earliest run a peer holds of each of {@code tasks}, asked {@value #TASKS_PER_REQUEST} tasks per request;
     * none of a batch it does not answer (logged).
     */
    private CompletableFuture<Map<TaskId, HeldDecisions>> earliest(URI peer, List<TaskId> tasks,
                                                                      Map<TaskId, Integer> incarnations) {
        List<CompletableFuture<Map<TaskId, HeldDecisions>>> batches = new ArrayList<>();
        for (int first = 0; first < tasks.size(); first += TASKS_PER_REQUEST) {
            batches.add(earliestOfBatch(peer, tasks.subList(first, Math.min(tasks.size(), first + TASKS_PER_REQUEST)),
                    incarnations));
        }
        return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<TaskId, HeldDecisions> runs = new LinkedHashMap<>();
            batches.forEach(batch -> runs.putAll(batch.join()));
            return runs;
        });
    }

    /** One request for the earliest runs of {@code tasks}; none if it is not answered (logged). */
    private CompletableFuture<Map<TaskId, HeldDecisions>> earliestOfBatch(URI peer, List<TaskId> tasks,
                                                                             Map<TaskId, Integer> incarnations) {
        if (tasks.isEmpty()) {
            return CompletableFuture.completedFuture(Map.of());
        }
        UriComponentsBuilder uri = UriComponentsBuilder.fromUri(peer)
                .path("/api/v1/deployments/{topology}/decisions/earliest");
        tasks.forEach(task -> uri.queryParam("task", task.toString()));
        if (incarnations.keySet().containsAll(tasks)) {
            tasks.forEach(task -> uri.queryParam("incarnation", incarnations.get(task)));
        }
        URI request = uri.buildAndExpand(tasks.iterator().next().topology().value()).encode().toUri();
        return CompletableFuture.supplyAsync(() -> {
            ResponseEntity<byte[]> response = get(request);
            if (response.getStatusCode().value() != 200 || response.getBody() == null) {
                LOG.warn("Host {} answered HTTP {} for the decisions of {}; trying the others", peer,
                        response.getStatusCode().value(), tasks);
                return Map.<TaskId, HeldDecisions>of();
            }
            return JSON.readValue(response.getBody(), EarliestDecisions.class).byTask();
        }, requests).exceptionally(e -> {
            LOG.warn("Host {} did not answer for the decisions of {} ({}); trying the others", peer, tasks,
                    e.toString());
            return Map.of();
        });
    }

    /**
     * The run a peer holds of the task's decisions from {@code fromOffset}; empty if none or no answer.
     *
     * @param incarnation the task's recovering incarnation, named in the request; null if unknown
     */
    private CompletableFuture<Optional<HeldDecisions>> fetch(URI peer, TaskId task, long fromOffset,
                                                                @Nullable Integer incarnation) {
        UriComponentsBuilder uri = UriComponentsBuilder.fromUri(peer)
                .path("/api/v1/deployments/{topology}/decisions").queryParam("task", task.toString())
                .queryParam("from", fromOffset);
        if (incarnation != null) {
            uri.queryParam("incarnation", incarnation);
        }
        URI request = uri.buildAndExpand(task.topology().value()).encode().toUri();
        return CompletableFuture.supplyAsync(() -> {
            ResponseEntity<byte[]> response = get(request);
            String from = response.getHeaders().getFirst(FROM_HEADER);
            return response.getStatusCode().value() == 200 && from != null && response.getBody() != null
                    ? Optional.of(new HeldDecisions(Long.parseLong(from), response.getBody()))
                    : Optional.<HeldDecisions>empty();
        }, requests).exceptionally(e -> {
            LOG.warn("Host {} did not answer for the decisions of {} ({}); trying the others", peer, task,
                    e.toString());
            return Optional.empty();
        });
    }

    /** The answer to a GET, whatever its status. */
    private ResponseEntity<byte[]> get(URI request) {
        return http.get().uri(request).retrieve().onStatus(HttpStatusCode::isError, (asked, answer) -> { })
                .toEntity(byte[].class);
    }
}

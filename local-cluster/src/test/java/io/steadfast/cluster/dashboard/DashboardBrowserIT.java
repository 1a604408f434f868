package io.steadfast.cluster.dashboard;

import static io.steadfast.cluster.dashboard.ConsoleErrors.Expected.failedRequest;
import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.ClusterFixture;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.cluster.process.ServiceProcess;
import io.steadfast.protocol.router.CheckpointDetail;
import io.steadfast.protocol.router.RecoveryView;
import io.steadfast.protocol.router.TopologyDetail;
import io.steadfast.protocol.router.TopologyDetail.TaskState;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dashboard in headless Chromium against real processes (checkpoint-service, router, three hosts and a standby
 * host, the dashboard with its kill buttons on), walked through an incident as an operator would: every page from
 * its nav link; the word-count example deployed from the editor, first with an error the router names at
 * {@code operators[i].parallelism}, then as it should be; its operators' rates moving; its checkpoint history
 * growing, and a completed checkpoint opened to its acks, one per task; a host that runs its tasks killed from the
 * hosts page; the recovery reaching RECOVERED with its timeline; every metric the Grafana dashboard in docs/grafana
 * queries served by the router or a host; the topology finishing with every key's count exact.
 * After every step a screenshot goes to
 * {@code local-cluster/target/dashboard-screenshots/DashboardBrowserIT/<step>.png} and the browser console is read:
 * an error there fails the test.
 */
@Timeout(420)
class DashboardBrowserIT {

    private static final String TOPOLOGY = "dashboard-word-count";
    private static final String EXAMPLE = "word-count";
    /** About 40 s of input at this pace: time for every step before the topology finishes. */
    private static final int COUNT = 800_000;
    private static final int RATE_PER_SECOND = 20_000;
    private static final int KEYS = 1000;
    /**
     * Longer than the router's default 1 s, so that the page sees the history grow before the checkpoint-service's
     * retention (3 completed checkpoints per topology) caps it.
     */
    private static final int CHECKPOINT_INTERVAL_MS = 3000;
    private static final int RETAINED_COMPLETED_CHECKPOINTS = 3;
    private static final String COUNT_OPERATOR = "count";
    private static final OperatorId SINK = new OperatorId("sink");
    private static final List<String> TIMELINE = List.of("detected", "snapshots", "decisions", "restored",
            "caught-up");
    private static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(150);

    @RegisterExtension
    @Order(1)
    static final HeadlessChromium CHROMIUM = HeadlessChromium.forTestClass();

    @RegisterExtension
    @Order(2)
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("dashboard", 3).andStandbyHosts(1).andDashboard();

    private final RouterClient router = CLUSTER.router();
    private final JsonMapper json = router.json();
    private final TopologyId id = new TopologyId(TOPOLOGY);

    @AfterEach
    void deleteTopology() {
        router.delete(id);
    }

    @Test
    void deploysFromTheEditorAndFollowsAKilledHostToExactResults() {
        DashboardPage page = DashboardPage.of(CHROMIUM.driver(), CLUSTER.dashboardUrl(),
                Screenshots.dirOf(CLUSTER.repoRoot().resolve("local-cluster"), getClass().getSimpleName()));
        page.open();
        page.endStep("topologies-empty");

        String valid = deploysAnInvalidSpecAndSeesTheErrorAtItsField(page);
        deploysTheValidSpecAndSeesItsDag(page, valid);
        seesTheOperatorRatesMove(page);
        seesTheCheckpointHistoryGrow(page);
        opensACompletedCheckpointAndSeesEveryTaskAcked(page);
        HostId victim = killsAHostRunningTasksFromTheHostsPage(page);
        seesTheRecoveryReachRecoveredWithItsTimeline(page, victim);
        everyMetricTheGrafanaDashboardQueriesIsServed();
        loadsTheVotesAndThroughputPages(page);
        seesTheTopologyFinishWithExactCountsPerKey(page);
    }

    /** The example in the editor, made to run ~40 s, deployed once with count's parallelism 0; the valid spec. */
    private String deploysAnInvalidSpecAndSeesTheErrorAtItsField(DashboardPage page) {
        page.navigate("deploy");
        ObjectNode spec = chooseExample(page, EXAMPLE);
        page.endStep("deploy-example");
        runsForAboutFortySeconds(spec);
        String valid = json.writerWithDefaultPrettyPrinter().writeValueAsString(spec);
        int countIndex = operatorIndex(spec, COUNT_OPERATOR);
        ((ObjectNode) spec.get("operators").get(countIndex)).put("parallelism", 0);
        String field = "operators[" + countIndex + "].parallelism";

        type(page, json.writerWithDefaultPrettyPrinter().writeValueAsString(spec));
        page.click(By.id("deploy"));

        By error = By.cssSelector(".field-error[data-field=\"" + field + "\"]");
        page.await("the inline error at " + field, DashboardPage.DEFAULT_WAIT,
                d -> d.findElement(error).isDisplayed());
        assertThat(page.text(error)).as("the inline error at %s", field)
                .hasValueSatisfying(text -> assertThat(text).contains("parallelism"));
        assertThat(page.hash()).as("an invalid spec stays in the editor").startsWith("#/deploy");
        page.endStep("deploy-errors", failedRequest("/api/v1/topologies", 400));
        return valid;
    }

    private void deploysTheValidSpecAndSeesItsDag(DashboardPage page, String valid) {
        type(page, valid);
        page.click(By.id("deploy"));
        page.await(() -> "the topology's view after the deploy (the page is at " + page.hash() + ", #deploy-result: "
                        + page.text(By.id("deploy-result")).orElse("none") + ")", DashboardPage.DEFAULT_WAIT,
                d -> page.hash().equals("#/topologies/" + TOPOLOGY));
        page.await("the DAG's three operators", DashboardPage.DEFAULT_WAIT,
                d -> page.count(By.cssSelector("svg#dag g.dag-node[data-operator]")) == 3);
        assertThat(page.each(By.cssSelector("svg#dag g.dag-node[data-operator]"),
                node -> node.getDomAttribute("data-operator"))).containsExactlyInAnyOrder("source", "count", "sink");
        assertThat(page.count(By.id("cancel-topology"))).as("the topology's Cancel button").isEqualTo(1);
    }

    /** Each operator's events/s above 0, and the count operator's changing between two SSE updates. */
    private void seesTheOperatorRatesMove(DashboardPage page) {
        for (String operator : List.of("source", "count", "sink")) {
            page.await(() -> operator + "'s rate above 0 (it reads " + rateText(page, operator) + ")",
                    DashboardPage.DEFAULT_WAIT, d -> rate(page, operator).orElse(0) > 0);
        }
        double first = rate(page, COUNT_OPERATOR).orElseThrow();
        page.await(() -> "count's rate to change from " + first + " (it reads " + rateText(page, COUNT_OPERATOR) + ")",
                DashboardPage.DEFAULT_WAIT, d -> {
                    OptionalDouble now = rate(page, COUNT_OPERATOR);
                    return now.isPresent() && now.getAsDouble() > 0 && now.getAsDouble() != first;
                });
        page.endStep("topology-dag");

        page.click(By.cssSelector("svg#dag g.dag-node[data-operator=\"" + COUNT_OPERATOR + "\"]"));
        By countTasks = By.cssSelector("tr[data-task^=\"" + TOPOLOGY + "/" + COUNT_OPERATOR + "#\"]");
        page.await("the count operator's two tasks", DashboardPage.DEFAULT_WAIT, d -> page.count(countTasks) == 2);
        assertThat(page.each(countTasks, row -> row.findElement(By.cssSelector("td[data-field=\"host\"]")).getText()))
                .allSatisfy(host -> assertThat(host).startsWith("host-"));
        By countLatencies = By.cssSelector("tr[data-task^=\"" + TOPOLOGY + "/" + COUNT_OPERATOR
                + "#\"] td[data-field=\"latency\"]");
        page.await("a latency measured by the count operator's tasks", DashboardPage.DEFAULT_WAIT,
                d -> positiveValues(page, countLatencies) > 0);
        By countOutputWaits = By.cssSelector("tr[data-task^=\"" + TOPOLOGY + "/" + COUNT_OPERATOR
                + "#\"] td[data-field=\"output-wait\"]");
        page.await("the wait of the count operator's records in output frames", DashboardPage.DEFAULT_WAIT,
                d -> positiveValues(page, countOutputWaits) > 0);
        page.endStep("topology-tasks");
    }

    private void seesTheCheckpointHistoryGrow(DashboardPage page) {
        page.navigate("checkpoints");
        page.endStep("checkpoints-all");

        page.openRoute("topologies/" + TOPOLOGY + "/checkpoints");
        page.awaitView("checkpoints");
        int before = completedCheckpoints(page).size();
        long newestBefore = completedCheckpoints(page).stream().mapToLong(Long::longValue).max().orElse(0);
        int grown = Math.max(before + 1, 2);
        page.await(() -> "the history of COMPLETED checkpoints to grow from " + before + " to " + grown + " rows"
                        + " (newest " + newestBefore + "); it shows " + completedCheckpoints(page),
                Duration.ofSeconds(4L * CHECKPOINT_INTERVAL_MS / 1000 + 10),
                // once the store's retention caps the rows, a newer checkpoint replacing an older one is the growth
                d -> completedCheckpoints(page).size() >= grown || before >= RETAINED_COMPLETED_CHECKPOINTS
                        && completedCheckpoints(page).stream().anyMatch(checkpoint -> checkpoint > newestBefore));
        page.await("the duration and size chart drawn", DashboardPage.DEFAULT_WAIT,
                d -> page.count(By.cssSelector("#checkpoint-chart canvas, #checkpoint-chart svg")) > 0);
        page.endStep("checkpoints");
    }

    /**
     * A click on the newest COMPLETED checkpoint's row opens a row per task of the topology, each acked; Enter on the
     * row closes it. The router's answer (from the checkpoint-service) says the same. Done at once after the history
     * grew: the store drops a completed checkpoint three intervals later.
     */
    private void opensACompletedCheckpointAndSeesEveryTaskAcked(DashboardPage page) {
        long checkpoint = completedCheckpoints(page).stream().mapToLong(Long::longValue).max().orElseThrow();
        Set<String> tasks = router.topology(id).tasks().stream().map(task -> task.task().toString())
                .collect(Collectors.toCollection(TreeSet::new));
        CheckpointDetail detail = router.checkpoint(id, checkpoint).orElseThrow(() -> new AssertionError(
                "The router does not find checkpoint " + checkpoint + " of " + TOPOLOGY + " that the page lists"));
        assertThat(detail.missingTasks()).as("the tasks that did not ack completed checkpoint %d", checkpoint)
                .isEmpty();
        assertThat(detail.tasks()).as("the router's acks of checkpoint %d", checkpoint)
                .allSatisfy(task -> assertThat(task.acked()).isTrue())
                .extracting(task -> task.task().toString()).containsExactlyInAnyOrderElementsOf(tasks);

        By row = By.cssSelector("tr[data-checkpoint=\"" + checkpoint + "\"]");
        page.click(row);
        By taskRows = By.cssSelector("tr[data-checkpoint-detail=\"" + checkpoint + "\"] tr[data-checkpoint-task]");
        Map<String, String> acked = page.await(() -> "a row per task (" + tasks.size() + ") under checkpoint "
                + checkpoint + ", each acked; it shows " + ackedByTask(page, taskRows), DashboardPage.DEFAULT_WAIT,
                d -> {
                    Map<String, String> shown = ackedByTask(page, taskRows);
                    return shown.keySet().equals(tasks) && shown.values().stream().allMatch("yes"::equals)
                            ? shown : null;
                });
        assertThat(acked).as("acked, per task of checkpoint %d", checkpoint).hasSize(tasks.size());
        page.endStep("checkpoint-acks");

        page.script("arguments[0].focus();", page.driver().findElement(row));
        new Actions(page.driver()).sendKeys(Keys.ENTER).perform();
        page.await("checkpoint " + checkpoint + "'s acks closed by Enter on its row", DashboardPage.DEFAULT_WAIT,
                d -> page.count(taskRows) == 0);
        page.endStep("checkpoint-acks-closed");
    }

    /** The text of {@code td[data-field=acked]} by {@code data-checkpoint-task}, of the rows {@code rows} finds. */
    private static Map<String, String> ackedByTask(DashboardPage page, By rows) {
        Map<String, String> acked = new TreeMap<>();
        page.each(rows, row -> Map.entry(row.getDomAttribute("data-checkpoint-task"),
                        row.findElement(By.cssSelector("td[data-field=\"acked\"]")).getText().trim()))
                .forEach(entry -> acked.put(entry.getKey(), entry.getValue()));
        return acked;
    }

    /** Kill → the confirmation dialog → yes, on a host that runs a count task; that host. */
    private HostId killsAHostRunningTasksFromTheHostsPage(DashboardPage page) {
        page.navigate("hosts");
        for (HostId host : CLUSTER.processes().hostIds()) {
            page.awaitText(hostStatus(host), "LIVE", DashboardPage.DEFAULT_WAIT);
        }
        HostId victim = hostRunningACountTask();
        page.endStep("hosts");

        page.click(By.cssSelector("button.kill-host[data-host=\"" + victim.value() + "\"]"));
        page.await("the confirmation dialog", DashboardPage.DEFAULT_WAIT,
                d -> d.findElement(By.id("confirm-dialog")).isDisplayed());
        page.endStep("hosts-kill-confirm");
        CLUSTER.log("killing " + victim + " from the dashboard's hosts page");
        page.click(By.id("confirm-yes"));
        page.await("the kill's answer in #kill-result", DashboardPage.DEFAULT_WAIT,
                d -> page.text(By.id("kill-result")).filter(text -> text.startsWith("Asked " + victim.value()))
                        .isPresent());

        page.await(victim + "'s process to end", DashboardPage.DEFAULT_WAIT,
                d -> !CLUSTER.processes().host(victim).map(ServiceProcess::isAlive).orElse(false));
        page.awaitText(hostStatus(victim), "DEAD", DashboardPage.DEFAULT_WAIT);
        // a dead host's rates are those of its last heartbeat: none are shown
        assertThat(page.text(By.cssSelector("tr[data-host=\"" + victim.value() + "\"] td[data-field=\"in-rate\"]")))
                .as("%s's input rate once DEAD", victim).contains("–");
        page.endStep("hosts-after-kill");
        return victim;
    }

    private void seesTheRecoveryReachRecoveredWithItsTimeline(DashboardPage page, HostId victim) {
        page.navigate("recoveries");
        AtomicReference<Optional<RecoveryView>> recovery = new AtomicReference<>(Optional.empty());
        page.await("the router's recovery of " + TOPOLOGY + " after " + victim, RECOVERY_TIMEOUT, d -> {
            recovery.set(router.recoveries(id).stream()
                    .filter(r -> r.detection().failedHost().equals(victim)).findFirst());
            return recovery.get().isPresent();
        });
        long recoveryId = recovery.get().orElseThrow().id();
        By row = By.cssSelector("tr[data-recovery=\"" + recoveryId + "\"]");
        page.awaitText(By.cssSelector("tr[data-recovery=\"" + recoveryId + "\"] td[data-field=\"status\"]"),
                RecoveryView.RECOVERED, RECOVERY_TIMEOUT);
        page.endStep("recoveries");

        By link = By.cssSelector("tr[data-recovery=\"" + recoveryId + "\"] a[href=\"#/recoveries/" + recoveryId
                + "\"]");
        page.click(page.count(link) > 0 ? link : row);
        page.await(() -> "#/recoveries/" + recoveryId + " opened (the page is at " + page.hash() + ")",
                DashboardPage.DEFAULT_WAIT, d -> page.hash().equals("#/recoveries/" + recoveryId));
        page.awaitView("recoveries");
        // a local recovery fetches snapshots and collects decisions; one that fell back to global restores everything
        RecoveryView recovered = router.recoveries(id).stream().filter(r -> r.id() == recoveryId).findFirst()
                .orElseThrow();
        CLUSTER.log("recovery " + recoveryId + ": " + recovered.restoration().mode() + ", " + recovered.outcome());
        List<String> expectedSteps = recovered.isLocal() ? TIMELINE
                : TIMELINE.stream().filter(step -> !step.equals("snapshots") && !step.equals("decisions")).toList();
        By steps = By.cssSelector("ol#recovery-timeline > li[data-step]");
        page.await("the timeline of recovery " + recoveryId, DashboardPage.DEFAULT_WAIT,
                d -> page.count(steps) == expectedSteps.size());
        assertThat(page.each(steps, step -> step.getDomAttribute("data-step")))
                .as("the timeline's steps, in order, of a %s recovery", recovered.restoration().mode())
                .containsExactlyElementsOf(expectedSteps);
        By predictedTotal = By.cssSelector("#recovery-forecast tr[data-step=\"total\"] td[data-field=\"predicted\"]");
        page.await("the delay model's predicted total beside the measured one", DashboardPage.DEFAULT_WAIT,
                d -> positiveValues(page, predictedTotal) == 1);
        page.endStep("recovery-timeline");
    }

    /** Once a recovery and checkpoints happened, each name docs/grafana queries is served by the router or a host. */
    private void everyMetricTheGrafanaDashboardQueriesIsServed() {
        Set<String> served = new TreeSet<>(GrafanaQueries.servedNames(router.baseUrl()));
        router.hosts().stream().filter(host -> host.status().equals("LIVE"))
                .forEach(host -> served.addAll(GrafanaQueries.servedNames(host.controlUrl())));
        Set<String> queried = GrafanaQueries.queriedNames(CLUSTER.repoRoot());
        assertThat(queried).as("the names %s queries", GrafanaQueries.DASHBOARD).isNotEmpty();
        assertThat(served).as("the names the router and the live hosts serve on /actuator/prometheus")
                .containsAll(queried);
    }

    private void loadsTheVotesAndThroughputPages(DashboardPage page) {
        page.navigate("votes");
        page.endStep("votes");
        page.navigate("throughput");
        page.await("the throughput and latency charts drawn", DashboardPage.DEFAULT_WAIT,
                d -> page.count(By.cssSelector("#throughput-chart canvas, #throughput-chart svg")) > 0
                        && page.count(By.cssSelector("#latency-chart canvas, #latency-chart svg")) > 0);
        // the operator's latency runs until its output left, so it holds the output wait: both read in one script,
        // so that they come from the same update
        String row = "tr[data-series=\"" + TOPOLOGY + "/" + COUNT_OPERATOR + "\"]";
        page.await("the count operator's latency in the table, above its output wait", DashboardPage.DEFAULT_WAIT,
                d -> {
                    List<?> values = (List<?>) page.script("const row = document.querySelector(arguments[0]);"
                            + " return row ? ['latency', 'output-wait'].map(field => Number("
                            + "row.querySelector('[data-field=\"' + field + '\"]').dataset.value || 0)) : [0, 0];",
                            row);
                    double latency = ((Number) values.get(0)).doubleValue();
                    double outputWait = ((Number) values.get(1)).doubleValue();
                    return outputWait > 0 && latency > outputWait;
                });
        page.endStep("throughput");
    }

    /** How many of the cells {@code cells} finds carry a {@code data-value} above zero. */
    private static long positiveValues(DashboardPage page, By cells) {
        return page.each(cells, cell -> cell.getDomAttribute("data-value")).stream()
                .filter(value -> value != null && !value.isEmpty() && Double.parseDouble(value) > 0).count();
    }

    private void seesTheTopologyFinishWithExactCountsPerKey(DashboardPage page) {
        page.navigate("topologies");
        page.awaitText(By.cssSelector("tr[data-topology=\"" + TOPOLOGY + "\"] td[data-field=\"status\"]"),
                TopologyDetail.FINISHED, FINISH_TIMEOUT);
        page.endStep("topologies-finished");

        TopologyDetail finished = router.topology(id);
        assertThat(finished.allTasksFinished()).isTrue();
        assertThat(finished.anyTaskFailed()).isFalse();
        Map<String, Long> counts = new TreeMap<>();
        router.results(id, SINK, OptionalInt.empty()).values().forEach((key, value) -> counts.put(key, value.asLong()));
        assertThat(counts).as("every key's final count").containsExactlyInAnyOrderEntriesOf(expectedCounts());
    }

    /** Picks the example in {@code select#example} and waits until the editor holds it; the spec it shows. */
    private ObjectNode chooseExample(DashboardPage page, String name) {
        Select examples = new Select(page.driver().findElement(By.id("example")));
        WebElement option = examples.getOptions().stream()
                .filter(o -> name.equals(o.getDomAttribute("value")) || o.getText().trim().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("No example " + name + " in select#example: "
                        + examples.getOptions().stream().map(WebElement::getText).toList()));
        examples.selectByVisibleText(option.getText());
        AtomicReference<JsonNode> shown = new AtomicReference<>();
        page.await("the editor to show the example " + name, DashboardPage.DEFAULT_WAIT, d -> {
            String text = d.findElement(By.id("spec-editor")).getDomProperty("value");
            try {
                shown.set(json.readTree(text));
            } catch (RuntimeException notJsonYet) {
                return false;
            }
            return shown.get().path("id").asString("").equals(name);
        });
        return (ObjectNode) shown.get();
    }

    /** Replaces the editor's text by typing {@code spec}, as a user would, and checks it arrived unchanged. */
    private void type(DashboardPage page, String spec) {
        WebElement editor = page.driver().findElement(By.id("spec-editor"));
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        editor.sendKeys(spec);
        JsonNode typed = json.readTree(page.driver().findElement(By.id("spec-editor")).getDomProperty("value"));
        assertThat(typed).as("the spec in the editor after typing").isEqualTo(json.readTree(spec));
    }

    /** Our id, ~40 s of input over {@link #KEYS} keys, checkpoints every {@link #CHECKPOINT_INTERVAL_MS}. */
    private void runsForAboutFortySeconds(ObjectNode spec) {
        spec.put("id", TOPOLOGY);
        ObjectNode config = (ObjectNode) spec.get("operators").get(operatorIndex(spec, "source")).get("config");
        config.put("count", COUNT).put("keys", KEYS).put("ratePerSecond", RATE_PER_SECOND);
        spec.putObject("checkpointing").put("intervalMs", CHECKPOINT_INTERVAL_MS).put("timeoutMs", 10_000);
    }

    private static int operatorIndex(JsonNode spec, String operator) {
        ArrayNode operators = (ArrayNode) spec.get("operators");
        for (int i = 0; i < operators.size(); i++) {
            if (operator.equals(operators.get(i).path("id").asString(""))) {
                return i;
            }
        }
        throw new AssertionError("The example has no operator " + operator + ": " + spec);
    }

    /** A live host running an unfinished task of the count operator (stateful: its loss needs a restore). */
    private HostId hostRunningACountTask() {
        TopologyDetail view = router.topology(id);
        assertThat(view.allTasksFinished()).as("the topology still runs when its host is killed").isFalse();
        List<HostId> running = CLUSTER.processes().liveHostIds();
        return view.tasks().stream()
                .filter(task -> task.task().operator().value().equals(COUNT_OPERATOR) && !task.isFinished()
                        && running.contains(task.host()))
                .map(TaskState::host).findFirst()
                .orElseThrow(() -> new AssertionError("No live host runs a count task: " + view.tasks()));
    }

    private static By hostStatus(HostId host) {
        return By.cssSelector("tr[data-host=\"" + host.value() + "\"] td[data-field=\"status\"]");
    }

    private static OptionalDouble rate(DashboardPage page, String operator) {
        return page.text(rateOf(operator)).map(RateText::eventsPerSecond).orElse(OptionalDouble.empty());
    }

    private static String rateText(DashboardPage page, String operator) {
        return page.text(rateOf(operator)).orElse("nothing");
    }

    private static By rateOf(String operator) {
        return By.cssSelector("[data-operator-rate=\"" + operator + "\"]");
    }

    /** The ids of the checkpoint rows whose status reads COMPLETED. */
    private static List<Long> completedCheckpoints(DashboardPage page) {
        return page.each(By.cssSelector("tr[data-checkpoint]"), row -> row.findElement(
                        By.cssSelector("td[data-field=\"status\"]")).getText().trim().equals("COMPLETED")
                        ? Long.parseLong(row.getDomAttribute("data-checkpoint")) : -1L)
                .stream().filter(checkpoint -> checkpoint >= 0).toList();
    }

    /**
     * What the generator emits (as the other end-to-end tests' {@code TestTopologies.expectedCounts}): key-k gets
     * COUNT/KEYS events, plus one for the first COUNT%KEYS keys; a keyed count of them is exact after any recovery.
     */
    private static Map<String, Long> expectedCounts() {
        Map<String, Long> expected = new TreeMap<>();
        for (int k = 0; k < KEYS; k++) {
            expected.put("key-" + k, (long) (COUNT / KEYS + (k < COUNT % KEYS ? 1 : 0)));
        }
        return expected;
    }
}

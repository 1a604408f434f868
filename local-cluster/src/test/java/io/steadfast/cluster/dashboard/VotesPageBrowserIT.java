package io.steadfast.cluster.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.cluster.ClusterFixture;
import io.steadfast.cluster.client.RouterClient;
import io.steadfast.protocol.router.TopologyVotes;
import io.steadfast.runtime.topology.OperatorId;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;

/**
 * The votes page in headless Chromium against a real N-version run: PE hosts and a voter-service, the examples jar's
 * three scoring versions voted on by majority, one of them wrong on about a tenth of its inputs and one that throws
 * once. While it runs the page shows a row per version; once it finished, each row shows exactly what the router's
 * votes API counts, the wrong version outvoted and the throwing one failed.
 */
@Timeout(300)
class VotesPageBrowserIT {

    private static final String TOPOLOGY = "dashboard-votes";
    private static final int COUNT = 200_000;
    private static final OperatorId SCORE = new OperatorId("score");
    private static final OperatorId SINK = new OperatorId("sink");
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(150);

    @RegisterExtension
    @Order(1)
    static final HeadlessChromium CHROMIUM = HeadlessChromium.forTestClass();

    @RegisterExtension
    @Order(2)
    static final ClusterFixture CLUSTER = ClusterFixture.withHosts("dashboard-votes", 2).andVoters(1).andDashboard();

    private final RouterClient router = CLUSTER.router();

    @Test
    void showsWhatEachVersionDidAsTheRouterCountsIt() {
        DashboardPage page = DashboardPage.of(CHROMIUM.driver(), CLUSTER.dashboardUrl(),
                Screenshots.dirOf(CLUSTER.repoRoot().resolve("local-cluster"), getClass().getSimpleName()));
        TopologyId id = router.deploy("""
                {"id": "%s", "checkpointing": {"intervalMs": 1000, "timeoutMs": 20000}, "operators": [
                  {"id": "source", "type": "generator", "parallelism": 2,
                   "config": {"count": %d, "keys": 1000, "ratePerSecond": 20000}},
                  {"id": "score", "parallelism": 2, "inputs": [{"from": "source", "partitioning": "key"}],
                   "versions": [
                     {"type": "score-formula"},
                     {"type": "score-table", "config": {"wrongFraction": 0.1}},
                     {"type": "score-iterative", "config": {"throwAtInput": 30000}}],
                   "voting": {"strategy": "majority", "deadlineMs": 30000}},
                  {"id": "digest", "type": "keyed-digest", "parallelism": 2,
                   "inputs": [{"from": "score", "partitioning": "key"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "digest", "partitioning": "key"}]}
                ]}""".formatted(TOPOLOGY, COUNT)).id();

        page.open();
        page.openRoute("votes/" + TOPOLOGY);
        page.awaitView("votes");
        List<String> rows = List.of("score/0", "score/1", "score/2");
        for (String row : rows) {
            page.await("the row of version " + row, DashboardPage.DEFAULT_WAIT,
                    d -> page.count(versionRow(row)) == 1);
        }
        page.await("ballots agreed on by version 0", DashboardPage.DEFAULT_WAIT,
                d -> count(page, "score/0", "agreed").orElse(0L) > 0);
        page.endStep("votes-running");

        CLUSTER.finalCountsThroughRestarts(id, SINK, FINISH_TIMEOUT);
        List<TopologyVotes.Version> counted = router.votes(id).operators().stream()
                .filter(operator -> operator.operator().equals(SCORE)).findFirst().orElseThrow().versions();
        assertThat(counted).hasSize(3);
        assertThat(counted.get(1).outvoted()).as("the wrong version, by the router").isPositive();
        assertThat(counted.get(2).failed()).as("the throwing version, by the router").isPositive();
        for (TopologyVotes.Version version : counted) {
            String row = SCORE.value() + "/" + version.version();
            page.await(() -> "row " + row + " to show the router's final counts " + version + " (it shows agreed "
                            + count(page, row, "agreed") + ", outvoted " + count(page, row, "outvoted") + ", late "
                            + count(page, row, "late") + ", failed " + count(page, row, "failed") + ")",
                    DashboardPage.DEFAULT_WAIT,
                    d -> count(page, row, "agreed").equals(Optional.of(version.agreed()))
                            && count(page, row, "outvoted").equals(Optional.of(version.outvoted()))
                            && count(page, row, "late").equals(Optional.of(version.late()))
                            && count(page, row, "failed").equals(Optional.of(version.failed())));
            assertThat(page.text(cell(row, "type"))).contains(version.type());
        }
        page.endStep("votes");
        assertThat(router.delete(id)).isTrue();
    }

    private static By versionRow(String row) {
        return By.cssSelector("tr[data-version=\"" + row + "\"]");
    }

    private static By cell(String row, String field) {
        return By.cssSelector("tr[data-version=\"" + row + "\"] td[data-field=\"" + field + "\"]");
    }

    /** The count a cell shows, read back from its grouped form ("12,345"). */
    private static Optional<Long> count(DashboardPage page, String row, String field) {
        return page.text(cell(row, field)).map(text -> text.replace(",", "").trim())
                .filter(text -> text.matches("\\d+")).map(Long::parseLong);
    }
}

package io.steadfast.cluster.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The metric names the Grafana dashboard in {@code docs/grafana} queries, and those services serve on
 * {@code /actuator/prometheus}: a dashboard that queries a name no service serves draws an empty panel.
 */
final class GrafanaQueries {

    static final Path DASHBOARD = Path.of("docs", "grafana", "steadfast-dashboard.json");
    private static final Pattern METRIC = Pattern.compile("\\bsteadfast_[a-z0-9_]+");

    private GrafanaQueries() {
    }

    /** Every {@code steadfast_*} name in the dashboard's panel queries. */
    static Set<String> queriedNames(Path repoRoot) {
        try {
            JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(repoRoot.resolve(DASHBOARD)));
            Set<String> names = new TreeSet<>();
            for (JsonNode panel : dashboard.get("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    Matcher matcher = METRIC.matcher(target.path("expr").asString(""));
                    while (matcher.find()) {
                        names.add(matcher.group());
                    }
                }
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the samples a service serves on {@code /actuator/prometheus}. */
    static Set<String> servedNames(URI service) {
        HttpRequest request = HttpRequest.newBuilder(service.resolve("/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(request,
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(request.uri() + " answered " + response.statusCode());
            }
            Set<String> names = new TreeSet<>();
            response.body().lines().filter(line -> !line.isBlank() && !line.startsWith("#"))
                    .map(line -> line.split("[{ ]", 2)[0]).forEach(names::add);
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

package io.steadfast.host.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.host.snapshot.InMemoryCheckpointing;
import io.steadfast.testkit.CheckedInApiSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ContextConfiguration;

/**
 * A host's OpenAPI spec is checked in as {@code docs/openapi/host.json}, so that a change of the API the router and
 * the other hosts call is a visible diff. After changing it on purpose, rewrite the file as the failure says. With
 * fault injection off (the default), so its endpoints are not in the spec.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "steadfast.host.id=under-test")
@ContextConfiguration(initializers = InMemoryCheckpointing.Store.class)
@Import(InMemoryCheckpointing.Reporting.class)
class HostOpenApiSpecTest {

    private static final CheckedInApiSpec SPEC = new CheckedInApiSpec("pe-host-service", "host.json",
            "HostOpenApiSpecTest");

    @LocalServerPort
    private int port;

    @Test
    void servedSpecIsTheCheckedInOne() throws Exception {
        HttpResponse<String> served = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/v3/api-docs")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);

        SPEC.assertServed(served.body());
    }
}

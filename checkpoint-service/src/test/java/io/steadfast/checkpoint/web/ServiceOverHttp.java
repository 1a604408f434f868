package io.steadfast.checkpoint.web;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The base of the API tests: the whole service on a random port (subclasses say
 * {@code @SpringBootTest(webEnvironment = RANDOM_PORT)}) over its embedded store, with the store's H2 file in a
 * temporary directory, called through real HTTP with {@link #api}.
 */
abstract class ServiceOverHttp {

    static final String PROBLEM = "application/problem+json";

    @TempDir
    static Path dataDir;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("steadfast.checkpoint.embedded.data-dir", () -> dataDir.toString());
    }

    @LocalServerPort
    int port;
    HttpApi api;

    @BeforeEach
    void client() {
        api = new HttpApi(port);
    }
}

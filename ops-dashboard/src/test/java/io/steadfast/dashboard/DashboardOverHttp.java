package io.steadfast.dashboard;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The base of a {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} class: {@link #http}, a real HTTP client of the
 * dashboard it started, ready before each test.
 */
public abstract class DashboardOverHttp {

    @LocalServerPort
    private int port;
    protected DashboardHttp http;

    @BeforeEach
    void connectToTheDashboard() {
        http = new DashboardHttp(port);
    }
}

package io.steadfast.dashboard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

class DashboardPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(DashboardProperties.class)
    static class PropertiesOnly {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(PropertiesOnly.class);

    @Test
    void defaultsToALocalRouterWithShortTimeouts() {
        runner.run(context -> {
            DashboardProperties properties = context.getBean(DashboardProperties.class);
            assertThat(properties.routerUrl()).containsExactly(URI.create("http://127.0.0.1:8080"));
            assertThat(properties.routerClient().connectTimeout()).isEqualTo(Duration.ofSeconds(1));
            assertThat(properties.routerClient().readTimeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(properties.events().interval()).isEqualTo(Duration.ofSeconds(1));
        });
    }

    @Test
    void leavesFaultInjectionOffUnlessTheLauncherTurnsItOn() {
        runner.run(context -> assertThat(context.getBean(DashboardProperties.class).faultInjection().enabled())
                .isFalse());
        runner.withPropertyValues("steadfast.dashboard.fault-injection.enabled=true").run(context ->
                assertThat(context.getBean(DashboardProperties.class).faultInjection().enabled()).isTrue());
    }

    @Test
    void bindsTheRouterUrlTheLauncherPasses() {
        runner.withPropertyValues("steadfast.dashboard.router-url=http://127.0.0.1:18080").run(context ->
                assertThat(context.getBean(DashboardProperties.class).routerUrl())
                        .containsExactly(URI.create("http://127.0.0.1:18080")));
    }

    @Test
    void bindsTheUrlsOfRouterReplicas() {
        runner.withPropertyValues("steadfast.dashboard.router-url=http://127.0.0.1:18080,http://127.0.0.1:18085")
                .run(context -> assertThat(context.getBean(DashboardProperties.class).routerUrl())
                        .containsExactly(URI.create("http://127.0.0.1:18080"), URI.create("http://127.0.0.1:18085")));
    }

    @Test
    void rejectsARouterUrlThatIsNotHttpNamingTheKey() {
        runner.withPropertyValues("steadfast.dashboard.router-url=ftp://router:21").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.dashboard.router-url is 'ftp://router:21'"));
    }

    @Test
    void rejectsAZeroReadTimeoutNamingTheKey() {
        runner.withPropertyValues("steadfast.dashboard.router-client.read-timeout=0s").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.dashboard.router-client.read-timeout"));
    }

    @Test
    void rejectsAnEmitterTimeoutNoLongerThanTheInterval() {
        runner.withPropertyValues("steadfast.dashboard.events.interval=5s",
                "steadfast.dashboard.events.emitter-timeout=5s").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.dashboard.events.emitter-timeout (PT5S) must be longer"));
    }
}

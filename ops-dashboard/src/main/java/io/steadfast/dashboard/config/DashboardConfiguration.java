package io.steadfast.dashboard.config;

import io.steadfast.dashboard.examples.ExampleTopologies;
import io.steadfast.dashboard.fault.HostKiller;
import io.steadfast.dashboard.health.RouterHealthIndicator;
import io.steadfast.dashboard.overview.OverviewAssembler;
import io.steadfast.dashboard.overview.OverviewFeed;
import io.steadfast.dashboard.router.RouterClient;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires the router client, the overview and its live feed, the router health indicator, the example topologies and
 * the host killer.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DashboardProperties.class)
class DashboardConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    RouterClient routerClient(DashboardProperties properties, JsonMapper jsonMapper) {
        return new RouterClient(properties.routerUrl(), properties.routerClient().connectTimeout(),
                properties.routerClient().readTimeout(), jsonMapper);
    }

    @Bean
    OverviewAssembler overviewAssembler(RouterClient routerClient, Clock clock) {
        return new OverviewAssembler(routerClient, clock);
    }

    @Bean
    OverviewFeed overviewFeed(OverviewAssembler assembler, DashboardProperties properties) {
        return new OverviewFeed(assembler, properties.events().interval(), properties.events().emitterTimeout());
    }

    @Bean
    ExampleTopologies exampleTopologies(JsonMapper jsonMapper) {
        return ExampleTopologies.load(ExampleTopologies.LOCATION, jsonMapper);
    }

    /** Calls hosts with the router client's timeouts, but not through it: see {@link HostKiller}. */
    @Bean
    HostKiller hostKiller(DashboardProperties properties, RouterClient routerClient) {
        RestClient hosts = RestClient.builder().requestFactory(RouterClient.requestFactory(
                properties.routerClient().connectTimeout(), properties.routerClient().readTimeout())).build();
        return new HostKiller(properties.faultInjection().enabled(), routerClient, hosts);
    }

    /** Named so that its health contributor is {@code router}. */
    @Bean
    RouterHealthIndicator routerHealthIndicator(RouterClient routerClient, Clock clock, DashboardProperties properties) {
        return new RouterHealthIndicator(routerClient, clock, properties.routerHealth().maxAge());
    }
}

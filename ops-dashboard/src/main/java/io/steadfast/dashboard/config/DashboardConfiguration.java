package io.steadfast.dashboard.config;

import io.steadfast.dashboard.health.RouterHealthIndicator;
import io.steadfast.dashboard.overview.OverviewAssembler;
import io.steadfast.dashboard.overview.OverviewFeed;
import io.steadfast.dashboard.router.RouterClient;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/** Wires the router client, the overview and its live feed, and the router health indicator. */
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

    /** Named so that its health contributor is {@code router}. */
    @Bean
    RouterHealthIndicator routerHealthIndicator(RouterClient routerClient, Clock clock, DashboardProperties properties) {
        return new RouterHealthIndicator(routerClient, clock, properties.routerHealth().maxAge());
    }
}

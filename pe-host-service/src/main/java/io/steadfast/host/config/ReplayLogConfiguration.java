package io.steadfast.host.config;

import io.steadfast.host.replaylog.HttpReplayLogStore;
import io.steadfast.host.replaylog.ReplayLogShipper;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The replay-log shipper and store, over the checkpoint-service at {@code steadfast.host.checkpoint-url}, when
 * {@code steadfast.host.replay-log.enabled=true}: every output log of this host is then shipped there, and a
 * recovery preloads what tasks lost together had sent each other from it. Off by default: local recovery does not
 * need it (decisions let lost tasks regenerate their output; connected tasks lost on two hosts at once are
 * recovered globally), and shipping every record to the embedded store costs more than this 2-core machine has
 * (see docs/performance.md). Its meters are bound as a {@code MeterBinder}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "steadfast.host.replay-log.enabled", havingValue = "true")
class ReplayLogConfiguration {

    /** The checkpoint-service's replay logs: where output logs are shipped to, and read back from in a recovery. */
    @Bean
    HttpReplayLogStore replayLogStore(HostProperties properties) {
        return new HttpReplayLogStore(ServiceClients.client(Duration.ofSeconds(1),
                properties.replayLog().requestTimeout()), properties.checkpointUrl());
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    ReplayLogShipper replayLogShipper(HostProperties properties, HttpReplayLogStore store) {
        HostProperties.ReplayLog settings = properties.replayLog();
        return new ReplayLogShipper(store, new ReplayLogShipper.Settings(settings.queueCapacity().toBytes(),
                settings.batchSize().toBytes(), settings.maxSegmentSize().toBytes(), settings.linger(),
                settings.retryWait(), settings.retryMaxWait(), settings.drainTimeout()));
    }
}

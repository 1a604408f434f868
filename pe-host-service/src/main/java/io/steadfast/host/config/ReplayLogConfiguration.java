package io.steadfast.host.config;

import io.steadfast.host.replaylog.HttpReplayLogStore;
import io.steadfast.host.replaylog.ReplayLogShipper;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The replay-log shipper, over the checkpoint-service at {@code steadfast.host.checkpoint-url}; unless
 * {@code steadfast.host.replay-log.enabled=false}. Its thread idles until segments arrive; nothing hands it any yet
 * (the data plane's output logs are wired to it with the rest of local recovery). Its meters are bound as a
 * {@code MeterBinder}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "steadfast.host.replay-log.enabled", havingValue = "true", matchIfMissing = true)
class ReplayLogConfiguration {

    /** The checkpoint-service's replay logs: where output logs are shipped to, and read back from in a recovery. */
    @Bean
    HttpReplayLogStore replayLogStore(HostProperties properties) {
        return new HttpReplayLogStore(HostRuntimeConfiguration.client(Duration.ofSeconds(1),
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

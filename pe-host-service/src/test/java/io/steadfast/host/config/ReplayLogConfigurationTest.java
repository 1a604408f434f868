package io.steadfast.host.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.host.replaylog.ReplayLogShipper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.ConfigurationPropertiesAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

/** The replay-log shipper bean and its settings, bound from {@code steadfast.host.replay-log.*}. */
class ReplayLogConfigurationTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(HostProperties.class)
    static class Bind {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ConfigurationPropertiesAutoConfiguration.class))
            .withUserConfiguration(Bind.class, ReplayLogConfiguration.class);

    @Test
    void providesAnIdleShipperWhenEnabledWithTheDocumentedSettings() {
        runner.withPropertyValues("steadfast.host.replay-log.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(ReplayLogShipper.class);
            HostProperties.ReplayLog settings = context.getBean(HostProperties.class).replayLog();
            assertThat(settings.enabled()).isTrue();
            assertThat(settings.queueCapacity()).isEqualTo(DataSize.ofMegabytes(64));
            assertThat(settings.batchSize()).isEqualTo(DataSize.ofMegabytes(1));
            assertThat(settings.maxSegmentSize()).isEqualTo(DataSize.ofMegabytes(8));
            assertThat(settings.linger()).isEqualTo(Duration.ofMillis(100));
            assertThat(settings.retryWait()).isEqualTo(Duration.ofMillis(100));
            assertThat(settings.retryMaxWait()).isEqualTo(Duration.ofSeconds(5));
            assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
            assertThat(settings.drainTimeout()).isEqualTo(Duration.ofSeconds(5));
            ReplayLogShipper shipper = context.getBean(ReplayLogShipper.class);
            assertThat(shipper.queuedBytes()).isZero();
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .contains("steadfast-host-replay-log-shipper");
        });
    }

    @Test
    void providesNoShipperByDefault() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(ReplayLogShipper.class);
            assertThat(context.getBean(HostProperties.class).replayLog().enabled()).isFalse();
        });
    }

    @Test
    void rejectsABatchLargerThanTheQueueNamingBothKeys() {
        runner.withPropertyValues("steadfast.host.replay-log.batch-size=2MB",
                "steadfast.host.replay-log.queue-capacity=1MB").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.host.replay-log.queue-capacity")
                        .hasMessageContaining("steadfast.host.replay-log.batch-size"));
    }

    @Test
    void rejectsARetryWaitAboveTheLongestNamingBothKeys() {
        runner.withPropertyValues("steadfast.host.replay-log.retry-wait=10s").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("steadfast.host.replay-log.retry-wait")
                        .hasMessageContaining("steadfast.host.replay-log.retry-max-wait"));
    }
}

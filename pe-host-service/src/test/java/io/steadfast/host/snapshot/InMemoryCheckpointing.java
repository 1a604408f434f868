package io.steadfast.host.snapshot;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Wiring for tests of the whole host without a checkpoint-service or a router: snapshots kept in memory
 * ({@link Store}), checkpoint acknowledgements recorded instead of sent ({@link Reporting}).
 */
public final class InMemoryCheckpointing {

    private InMemoryCheckpointing() {
    }

    /** Registers an {@link InMemorySnapshotStore} under the name the host's configuration steps aside for. */
    public static final class Store implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getBeanFactory().registerSingleton("snapshotStore", new InMemorySnapshotStore());
        }
    }

    /** Records the host's checkpoint acknowledgements and refusals ({@link RecordingReporter}). */
    @TestConfiguration(proxyBeanMethods = false)
    public static class Reporting {
        @Bean
        @Primary
        RecordingReporter recordingReporter() {
            return new RecordingReporter();
        }
    }
}

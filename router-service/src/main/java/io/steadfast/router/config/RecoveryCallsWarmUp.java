package io.steadfast.router.config;

import io.steadfast.router.host.HostClient;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;

/**
 * Warms the calls of a local recovery once the router has started ({@link HostClient#warmUp}), before it reports
 * itself ready to take traffic: otherwise a router's first recovery pays the first use of each request and answer
 * type (docs/performance.md).
 */
final class RecoveryCallsWarmUp implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryCallsWarmUp.class);

    private final HostClient hostClient;

    RecoveryCallsWarmUp(HostClient hostClient) {
        this.hostClient = hostClient;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        long start = System.nanoTime();
        try {
            List<String> calls = hostClient.warmUp();
            LOG.info("Warmed up the calls {} of a local recovery in {} ms", calls,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException e) {
            LOG.warn("Could not warm up the calls of a local recovery (the first recovery will be slower): {}",
                    e.toString());
        }
    }
}

package io.steadfast.host.fault;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Fault injection for demos and tests, present only with {@code steadfast.host.fault-injection.enabled=true}
 * (otherwise the path is 404): {@code POST /api/v1/fault/kill} answers 202 and then halts the process with
 * status 137, like SIGKILL: no shutdown hooks, no goodbye to the router.
 */
@RestController
@ConditionalOnProperty(name = "steadfast.host.fault-injection.enabled", havingValue = "true")
class FaultController {

    private static final Logger LOG = LoggerFactory.getLogger(FaultController.class);

    private final ProcessHalter halter;

    FaultController(ProcessHalter halter) {
        this.halter = halter;
    }

    @PostMapping("/api/v1/fault/kill")
    ResponseEntity<Void> kill() {
        LOG.warn("Fault injection: halting this host now (exit 137)");
        // halt a moment later, so that the 202 reaches the caller first
        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> halter.halt(137));
        return ResponseEntity.accepted().build();
    }
}

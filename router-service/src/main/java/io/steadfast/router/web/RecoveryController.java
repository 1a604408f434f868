package io.steadfast.router.web;

import io.steadfast.router.recovery.Recovery;
import io.steadfast.router.recovery.RecoveryLog;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The recoveries this router ran, newest first, with their times. */
@RestController
class RecoveryController {

    private final RecoveryLog log;

    RecoveryController(RecoveryLog log) {
        this.log = log;
    }

    @GetMapping("/api/v1/recoveries")
    List<Recovery> list() {
        return log.all();
    }
}

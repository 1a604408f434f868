package io.steadfast.router.web;

import io.steadfast.protocol.router.LeaderView;
import io.steadfast.router.leadership.Leadership;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Which router leads: this one, since its context runs only while it does (a standby serves its own answer). */
@RestController
@Tag(name = RouterApiDocs.LEADER)
class LeaderController {

    private final Leadership leadership;

    LeaderController(Leadership leadership) {
        this.leadership = leadership;
    }

    @GetMapping("/api/v1/leader")
    LeaderView leader() {
        return new LeaderView(LeaderView.LEADER, leadership.leaderUrl().orElse(null), leadership.epoch());
    }
}

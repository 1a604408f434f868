package io.steadfast.dashboard.overview;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** The page's two data sources: one overview on request, and a stream of them. */
@RestController
@RequestMapping("/api/v1")
class OverviewController {

    private final OverviewAssembler assembler;
    private final OverviewFeed feed;

    OverviewController(OverviewAssembler assembler, OverviewFeed feed) {
        this.assembler = assembler;
        this.feed = feed;
    }

    /** 200 whether or not the router answered: {@code routerReachable} and {@code error} say which. */
    @GetMapping("/overview")
    Overview overview() {
        return assembler.assemble();
    }

    /** Server-sent events named {@code overview}, one per interval (steadfast.dashboard.events.interval). */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events() {
        return feed.subscribe();
    }
}

package io.steadfast.dashboard.passthrough;

import io.steadfast.dashboard.router.RouterClient;
import io.steadfast.dashboard.web.DashboardRequestException;
import io.steadfast.runtime.topology.TopologyId;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.RequestEntity;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.HandlerMapping;

/**
 * The router's API as the page uses it, on the dashboard's own origin: the page needs no CORS and no router URL,
 * and follows the leader among router replicas through {@link RouterClient}. Each call is passed on as it came (query
 * and body included) and the router's status, {@code Content-Type} and body come back unchanged, so the page reads
 * the router's own problem details (an invalid topology's {@code errors}, say). If no router answers: 502
 * {@code ROUTER_UNREACHABLE} naming the router's URL.
 *
 * <p>Only the paths mapped here are passed on, a whitelist, not an open proxy: the router's host and checkpoint
 * calls (registration, heartbeats, acks) stay out of reach of a browser. The path sent to the router is built from
 * the matched mapping and a topology id that must be valid, never copied from the request.
 */
@RestController
class RouterPassThroughController {

    /** Far above the router's own limit (steadfast.router.limits.max-spec-bytes): it guards the dashboard's memory. */
    static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

    private static final String ID = "{id}";
    private static final String CHECKPOINT_ID = "{checkpointId}";
    /** A checkpoint id as the router writes it: a number from 0, at most the digits of a {@code long}. */
    private static final Pattern CHECKPOINT_ID_FORM = Pattern.compile("0|[1-9][0-9]{0,17}");

    private final RouterClient router;

    RouterPassThroughController(RouterClient router) {
        this.router = router;
    }

    @GetMapping({"/api/v1/topologies", "/api/v1/topologies/{id}", "/api/v1/topologies/{id}/plan",
            "/api/v1/topologies/{id}/checkpoints", "/api/v1/topologies/{id}/checkpoints/{checkpointId}",
            "/api/v1/topologies/{id}/votes", "/api/v1/recoveries", "/api/v1/hosts"})
    ResponseEntity<byte[]> read(@PathVariable(required = false) @Nullable String id,
                                @PathVariable(required = false) @Nullable String checkpointId,
                                HttpServletRequest request) {
        return router.forward(RequestEntity.method(HttpMethod.GET, onRouter(request, id, checkpointId)).build());
    }

    /** Deploys the topology spec in the body; the router answers 201, or 400 naming the fields at fault. */
    @PostMapping("/api/v1/topologies")
    ResponseEntity<byte[]> deploy(HttpServletRequest request) throws IOException {
        return router.forward(RequestEntity.method(HttpMethod.POST, onRouter(request, null, null))
                .contentType(contentType(request)).body(body(request)));
    }

    /** Cancels a topology: the router's 204, or its 404 for an unknown one. */
    @DeleteMapping("/api/v1/topologies/{id}")
    ResponseEntity<byte[]> cancel(@PathVariable String id, HttpServletRequest request) {
        return router.forward(RequestEntity.method(HttpMethod.DELETE, onRouter(request, id, null)).build());
    }

    /** The matched mapping with the topology and checkpoint ids in it, and the request's query as it came. */
    private static URI onRouter(HttpServletRequest request, @Nullable String id, @Nullable String checkpointId) {
        String path = String.valueOf(request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE));
        if (path.contains(ID)) {
            path = path.replace(ID, validTopologyId(id));
        }
        if (path.contains(CHECKPOINT_ID)) {
            path = path.replace(CHECKPOINT_ID, validCheckpointId(checkpointId));
        }
        String query = request.getQueryString();
        try {
            return new URI(query == null ? path : path + "?" + query);
        } catch (URISyntaxException e) {
            throw DashboardRequestException.invalid("query", "'" + query + "' is not a valid URL query ("
                    + e.getReason() + "); encode its values, e.g. with encodeURIComponent");
        }
    }

    private static String validTopologyId(@Nullable String id) {
        if (!TopologyId.isValid(id)) {
            throw DashboardRequestException.invalid("id", "'" + id + "' is not a topology id: it has 1 to 63"
                    + " lowercase letters, digits and dashes and starts with a letter or digit; use an id as"
                    + " GET /api/v1/topologies lists it");
        }
        return id;
    }

    private static String validCheckpointId(@Nullable String checkpointId) {
        if (checkpointId == null || !CHECKPOINT_ID_FORM.matcher(checkpointId).matches()) {
            throw DashboardRequestException.invalid("checkpointId", "'" + checkpointId + "' is not a checkpoint id:"
                    + " it is a number from 0, without sign or leading zeros; use an id as"
                    + " GET /api/v1/topologies/{id}/checkpoints lists it");
        }
        return checkpointId;
    }

    /** JSON unless the page says otherwise: the router reads the body as a topology spec whatever it is labelled. */
    private static MediaType contentType(HttpServletRequest request) {
        String header = request.getContentType();
        if (header == null) {
            return MediaType.APPLICATION_JSON;
        }
        try {
            return MediaType.parseMediaType(header);
        } catch (InvalidMediaTypeException e) {
            throw DashboardRequestException.invalid("Content-Type", "'" + header + "' is not a media type ("
                    + e.getMessage() + "); send application/json");
        }
    }

    private static byte[] body(HttpServletRequest request) throws IOException {
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (body.length > MAX_BODY_BYTES) {
            throw new DashboardRequestException(DashboardRequestException.Reason.REQUEST_TOO_LARGE, "The request body"
                    + " is over " + MAX_BODY_BYTES + " bytes, more than the dashboard passes on; a topology spec is"
                    + " far smaller (the router takes at most steadfast.router.limits.max-spec-bytes)");
        }
        return body;
    }
}

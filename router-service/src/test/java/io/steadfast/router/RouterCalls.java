package io.steadfast.router;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.jayway.jsonpath.JsonPath;
import io.steadfast.runtime.plan.HostKind;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/** The router's REST calls that tests make again and again, over {@link MockMvc}. */
public final class RouterCalls {

    private final MockMvc mvc;

    public RouterCalls(MockMvc mvc) {
        this.mvc = mvc;
    }

    /** Registers a host (its URLs are never called: tests use the {@link FakeHostClient}). */
    public void register(String host) throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9"}"""
                .formatted(host))).andExpect(status().isOk());
    }

    /** Registers a host of {@code kind}, as {@link #register(String)} does a PE host naming no kind. */
    public void register(String host, HostKind kind) throws Exception {
        mvc.perform(post("/api/v1/hosts").contentType(MediaType.APPLICATION_JSON).content("""
                {"hostId": "%s", "controlUrl": "http://127.0.0.1:9", "dataEndpoint": "tcp://127.0.0.1:9",
                 "kind": "%s"}""".formatted(host, kind))).andExpect(status().isOk());
    }

    public ResultActions submit(String json) throws Exception {
        return mvc.perform(post("/api/v1/topologies").contentType(MediaType.APPLICATION_JSON).content(json));
    }

    public ResultActions checkpoints(String topology) throws Exception {
        return mvc.perform(get("/api/v1/topologies/{id}/checkpoints", topology));
    }

    public ResultActions trigger(String topology) throws Exception {
        return mvc.perform(post("/api/v1/topologies/{id}/checkpoints", topology));
    }

    /**
     * Cancels every topology the router holds, for test classes that share one router: a topology an earlier test
     * left would otherwise still be recovered onto the next test's hosts.
     */
    public void cancelEveryTopology() throws Exception {
        String body = mvc.perform(get("/api/v1/topologies")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
        List<String> ids = JsonPath.read(body, "$[*].id");
        for (String id : ids) {
            mvc.perform(delete("/api/v1/topologies/{id}", id)).andExpect(status().is2xxSuccessful());
        }
    }

    /** A source, a keyed count and a sink, one task each, with the given extra top-level JSON (e.g. checkpointing). */
    public static String pipeline(String id, String extra) {
        return """
                {"id": "%s", %s "operators": [
                  {"id": "source", "type": "generator", "config": {"count": 10}},
                  {"id": "count", "type": "keyed-count", "inputs": [{"from": "source"}]},
                  {"id": "sink", "type": "latest-value-sink", "inputs": [{"from": "count"}]}
                ]}""".formatted(id, extra.isEmpty() ? "" : extra + ",");
    }
}

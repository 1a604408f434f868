package io.steadfast.host.config;

import java.time.Duration;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.json.JsonMapper;

/** The clients of this host's calls to other services: the router, the checkpoint-service, peer hosts. */
public final class ServiceClients {

    /**
     * The JSON converter of every client: one mapper, so that Jackson builds the (de)serializers of a type once for
     * the host rather than once per client, and the warm-up can build those of calls a host makes only after a
     * recovery (its first heartbeat with catch-up reports) before its first real one.
     */
    private static final JacksonJsonHttpMessageConverter JSON = new JacksonJsonHttpMessageConverter();

    private ServiceClients() {
    }

    /** The mapper the clients write and read JSON with. */
    public static JsonMapper json() {
        return JSON.getMapper();
    }

    /**
     * Blocking HTTP/1.1 ({@code HttpURLConnection}, kept-alive connections reused) with the timeouts given: a request
     * is made on the calling thread. The JDK {@code HttpClient} passes each request and answer through several
     * threads, which on a loaded machine made a recovering host wait several times longer for its snapshots
     * (docs/performance.md).
     */
    public static RestClient client(Duration connectTimeout, Duration readTimeout) {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(connectTimeout);
        requests.setReadTimeout(readTimeout);
        return RestClient.builder().requestFactory(requests)
                .configureMessageConverters(converters -> converters.registerDefaults().withJsonConverter(JSON))
                .build();
    }
}

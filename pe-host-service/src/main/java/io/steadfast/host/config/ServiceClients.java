package io.steadfast.host.config;

import java.time.Duration;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/** The clients of this host's calls to other services: the router, the checkpoint-service, peer hosts. */
public final class ServiceClients {

    private ServiceClients() {
    }

    /**
     * Blocking HTTP/1.1 ({@code HttpURLConnection}, kept-alive connections reused) with the timeouts given: a request
     * is made on the calling thread. The JDK {@code HttpClient} passed each request and answer through several
     * threads, and on a loaded two-CPU machine a recovering host waited 20-130 ms for a batch of a few snapshots
     * that way, 5-53 ms this way (docs/performance.md, session 7).
     */
    public static RestClient client(Duration connectTimeout, Duration readTimeout) {
        SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
        requests.setConnectTimeout(connectTimeout);
        requests.setReadTimeout(readTimeout);
        return RestClient.builder().requestFactory(requests).build();
    }
}

package io.steadfast.host.config;

import io.steadfast.runtime.concurrent.RequestBodyWriters;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/** The clients of this host's calls to other services: the router, the checkpoint-service. */
public final class ServiceClients {

    private ServiceClients() {
    }

    /** HTTP/1.1 with the timeouts given, request bodies written on pooled threads. */
    public static RestClient client(Duration connectTimeout, Duration readTimeout) {
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build(), RequestBodyWriters.pool());
        requests.setReadTimeout(readTimeout);
        return RestClient.builder().requestFactory(requests).build();
    }
}

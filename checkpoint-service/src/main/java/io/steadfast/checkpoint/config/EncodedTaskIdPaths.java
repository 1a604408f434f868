package io.steadfast.checkpoint.config;

import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Lets task ids ({@code topology/operator#subtask}) travel URL-encoded in paths such as
 * {@code /api/v1/snapshots/word-count/7/word-count%2Fsink%230}: Tomcat rejects an encoded slash by default; here it
 * passes it through undecoded and Spring MVC decodes the path variable.
 */
@Configuration(proxyBeanMethods = false)
class EncodedTaskIdPaths {

    @Bean
    TomcatConnectorCustomizer encodedSlashPassThrough() {
        return connector -> connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
    }
}

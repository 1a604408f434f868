package io.steadfast.router.host;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

/**
 * Writes and reads bodies in memory through the JSON converter a {@link RestHostClient} sends and reads them with:
 * its first use of each body type costs Jackson an introspection of the type (23 ms for a recovery request on an
 * idle machine, several times that on a loaded one), which a router's first recovery paid on its critical path.
 */
final class JsonBodies {

    private final JacksonJsonHttpMessageConverter json;

    JsonBodies(JacksonJsonHttpMessageConverter json) {
        this.json = json;
    }

    /** The body as the client would send it. */
    byte[] write(Object body) {
        Out out = new Out();
        try {
            json.write(body, MediaType.APPLICATION_JSON, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.bytes.toByteArray();
    }

    /** An answer as the client would read it. */
    <T> T read(Class<T> type, byte[] body) {
        try {
            return type.cast(json.read(type, new In(body)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Out implements HttpOutputMessage {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final HttpHeaders headers = new HttpHeaders();

        @Override
        public OutputStream getBody() {
            return bytes;
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }
    }

    private static final class In implements HttpInputMessage {
        private final byte[] body;
        private final HttpHeaders headers = new HttpHeaders();

        In(byte[] body) {
            this.body = body;
            headers.setContentType(MediaType.APPLICATION_JSON);
        }

        @Override
        public InputStream getBody() {
            return new ByteArrayInputStream(body);
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }
    }
}

package io.steadfast.protocol.problem.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.steadfast.protocol.problem.FieldError;
import io.steadfast.protocol.store.CheckpointCompletion;
import io.steadfast.protocol.store.CheckpointCreation;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageNotReadableException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

class UnreadableBodyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What Spring MVC raises when Jackson cannot read {@code body} as a {@code type}. */
    private static HttpMessageNotReadableException unreadable(String body, Class<?> type) {
        JacksonException cause = catchThrowableOfType(JacksonException.class, () -> JSON.readValue(body, type));
        return new HttpMessageNotReadableException("JSON parse error: " + cause.getOriginalMessage(), cause,
                new HttpInputMessage() {
                    @Override
                    public InputStream getBody() {
                        return new ByteArrayInputStream(body.getBytes());
                    }

                    @Override
                    public HttpHeaders getHeaders() {
                        return new HttpHeaders();
                    }
                });
    }

    @Test
    void namesTheFieldOfAnIdItsTypeRefusedWithTheTypesOwnMessage() {
        UnreadableBody unreadable = UnreadableBody.of(unreadable("""
                {"acks": [{"task": "w/a#0"}, {"task": "zz"}]}""", CheckpointCompletion.class));

        assertThat(unreadable).isEqualTo(new UnreadableBody("acks[1].task",
                "Task id 'zz' is not of the form topology/operator#subtask"));
        assertThat(unreadable.asFieldError()).isEqualTo(FieldError.of("acks[1].task",
                "is unreadable: Task id 'zz' is not of the form topology/operator#subtask"));
    }

    @Test
    void namesAMapEntryByItsKeyAndLeavesJacksonsLocationOut() {
        UnreadableBody unreadable = UnreadableBody.of(unreadable("""
                {"checkpointId": 1, "incarnations": {"w/a#0": "x"}}""", CheckpointCreation.class));

        assertThat(unreadable.field()).isEqualTo("incarnations['w/a#0']");
        assertThat(unreadable.reason()).isEqualTo("Cannot deserialize value of type `java.lang.Integer` from String"
                + " \"x\": not a valid `java.lang.Integer` value");
    }

    @Test
    void blamesTheWholeBodyWhenItIsNoJson() {
        UnreadableBody unreadable = UnreadableBody.of(unreadable("{checkpointId", CheckpointCreation.class));

        assertThat(unreadable.namesField()).isFalse();
        assertThat(unreadable.reason()).startsWith("Unexpected character ('c' (code 99))");
        assertThat(unreadable.asFieldError().field()).isEqualTo("(body)");
    }
}

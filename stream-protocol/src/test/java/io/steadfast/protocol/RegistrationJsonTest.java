package io.steadfast.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.steadfast.protocol.registration.Registration;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.plan.HostKind;
import java.net.URI;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A host's registration names its kind; a body from a host that names none is a PE host's. */
class RegistrationJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aVoterRegistrationKeepsItsKindThereAndBack() {
        Registration voter = new Registration(new HostId("voter-1"), URI.create("http://127.0.0.1:9"),
                "tcp://127.0.0.1:10", "s1", HostKind.VOTER, "pod-uid-1");

        String written = JSON.writeValueAsString(voter);

        assertThat(written).isEqualTo("""
                {"hostId":"voter-1","controlUrl":"http://127.0.0.1:9","dataEndpoint":"tcp://127.0.0.1:10",\
                "session":"s1","kind":"VOTER","instance":"pod-uid-1"}""");
        assertThat(JSON.readValue(written, Registration.class)).isEqualTo(voter);
    }

    @Test
    void aRegistrationWithoutAKindIsAPeHosts() {
        Registration read = JSON.readValue("""
                {"hostId":"host-1","controlUrl":"http://127.0.0.1:9","dataEndpoint":"tcp://127.0.0.1:10"}""",
                Registration.class);

        assertThat(read.kind()).isEqualTo(HostKind.PE);
        assertThat(read.session()).isNull();
        assertThat(read.instance()).isNull();
    }
}

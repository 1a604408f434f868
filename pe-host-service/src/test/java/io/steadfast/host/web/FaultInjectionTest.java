package io.steadfast.host.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.host.fault.ProcessHalter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.web.servlet.MockMvc;

class FaultInjectionTest {

    /** Records the exit status instead of halting the test JVM. */
    static final class RecordingHalter implements ProcessHalter {
        final List<Integer> statuses = new CopyOnWriteArrayList<>();

        @Override
        public void halt(int status) {
            statuses.add(status);
        }
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Halter {
        @Bean
        @Primary
        RecordingHalter recordingHalter() {
            return new RecordingHalter();
        }
    }

    @Nested
    @Import(Halter.class)
    @SpringBootTest(properties = "steadfast.host.id=no-fault-host")
    @AutoConfigureMockMvc
    class Disabled {
        @Autowired
        MockMvc mvc;
        @Autowired
        RecordingHalter halter;

        @Test
        void killIsNotFoundWhenFaultInjectionIsOff() throws Exception {
            mvc.perform(post("/api/v1/fault/kill")).andExpect(status().isNotFound());
            assertThat(halter.statuses).isEmpty();
        }
    }

    @Nested
    @Import(Halter.class)
    @SpringBootTest(properties = {"steadfast.host.id=fault-host", "steadfast.host.fault-injection.enabled=true"})
    @AutoConfigureMockMvc
    class Enabled {
        @Autowired
        MockMvc mvc;
        @Autowired
        RecordingHalter halter;

        @Test
        void killAnswers202AndHaltsWithStatus137() throws Exception {
            mvc.perform(post("/api/v1/fault/kill")).andExpect(status().isAccepted());
            await().atMost(Duration.ofSeconds(5)).until(() -> halter.statuses.equals(List.of(137)));
        }
    }
}

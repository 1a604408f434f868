package io.steadfast.host.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.host.execution.ProcessingNode;
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
        @Autowired
        ProcessingNode node;

        @Test
        void killIsNotFoundWhenFaultInjectionIsOff() throws Exception {
            mvc.perform(post("/api/v1/fault/kill")).andExpect(status().isNotFound());
            assertThat(halter.statuses).isEmpty();
        }

        @Test
        void stallIsNotFoundWhenFaultInjectionIsOff() throws Exception {
            mvc.perform(post("/api/v1/fault/stall-data-plane").param("for", "2s")).andExpect(status().isNotFound());
            assertNotStalled(node);
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
        @Autowired
        ProcessingNode node;

        @Test
        void killAnswers202AndHaltsWithStatus137() throws Exception {
            mvc.perform(post("/api/v1/fault/kill")).andExpect(status().isAccepted());
            await().atMost(Duration.ofSeconds(5)).until(() -> halter.statuses.equals(List.of(137)));
        }

        @Test
        void stallDataPlaneAnswers202AndHangsTheIoThreadForThatLong() throws Exception {
            mvc.perform(post("/api/v1/fault/stall-data-plane").param("for", "1500ms"))
                    .andExpect(status().isAccepted());
            await().atMost(Duration.ofSeconds(2)).until(() -> node.dataPlaneStalledFor().toMillis() > 300);
            await().atMost(Duration.ofSeconds(5)).until(() -> node.dataPlaneStalledFor().isZero());
        }

        @Test
        void stallDataPlaneOfAnUnreadableOrUnboundedDurationIs400NamingTheParameter() throws Exception {
            mvc.perform(post("/api/v1/fault/stall-data-plane").param("for", "soon"))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.detail").value(startsWith("for: 'soon'")));
            mvc.perform(post("/api/v1/fault/stall-data-plane").param("for", "2h"))
                    .andExpect(status().isBadRequest());
            assertNotStalled(node);
        }
    }

    /**
     * The IO thread was not hung: for 300 ms it is never 200 ms behind its period. A few milliseconds behind is a busy
     * machine's scheduling, not a stall (the timer pass it measures from runs every quarter of the resync interval).
     */
    private static void assertNotStalled(ProcessingNode node) {
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1))
                .until(() -> node.dataPlaneStalledFor().compareTo(Duration.ofMillis(200)) < 0);
    }
}

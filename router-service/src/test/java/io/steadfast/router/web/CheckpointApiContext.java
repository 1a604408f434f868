package io.steadfast.router.web;

import io.steadfast.router.RouterTestBeans;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;

/**
 * The router checkpointing every second with hosts that stay LIVE (a heartbeat timeout of an hour on the manual clock
 * of {@link RouterTestBeans}), driven through MockMvc: the checkpoint API's test classes that carry it share one
 * application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(properties = {"steadfast.router.host-startup-grace=0s", "steadfast.router.heartbeat-timeout=1h",
        "steadfast.router.checkpoint.interval=1s", "steadfast.router.checkpoint.timeout=10s"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@interface CheckpointApiContext {
}

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
 * The router with small limits, a manual clock and recording hosts ({@link RouterTestBeans}), driven through MockMvc:
 * the test classes that carry it share one application context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(properties = {"steadfast.router.heartbeat-timeout=1s", "steadfast.router.host-startup-grace=0s",
        "steadfast.router.limits.max-spec-bytes=4096", "steadfast.router.limits.max-parallelism=8",
        "steadfast.router.limits.max-channels=32"})
@AutoConfigureMockMvc
@Import(RouterTestBeans.class)
@interface RouterApiContext {
}

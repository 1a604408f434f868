package io.steadfast.host.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.steadfast.host.execution.ProcessingNode;
import io.steadfast.host.execution.TaskMeters;
import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.task.TaskSettings;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the Spring-free host runtime: operator registry, data plane and the {@link ProcessingNode} over them. */
@Configuration(proxyBeanMethods = false)
class HostRuntimeConfiguration {

    @Bean
    OperatorRegistry operatorRegistry() {
        return OperatorRegistry.load();
    }

    /** Closed on shutdown (after the web server drained), which cancels every task and closes the data plane. */
    @Bean(destroyMethod = "close")
    ProcessingNode processingNode(HostProperties properties, OperatorRegistry registry, MeterRegistry meters) {
        DataPlane dataPlane = DataPlane.start(DataPlaneConfig.defaults().withBindAddress(properties.data().bindAddress()));
        HostRuntime runtime = new HostRuntime(new HostId(properties.id()), registry, dataPlane, TaskSettings.defaults(),
                Clock.systemUTC());
        return new ProcessingNode(runtime, registry, new TaskMeters(meters, runtime));
    }
}

package io.steadfast.router.config;

import io.steadfast.router.checkpoint.CheckpointCoordinators;
import io.steadfast.router.checkpoint.CheckpointRecords;
import io.steadfast.router.failure.HeartbeatFailureDetector;
import io.steadfast.router.model.CheckpointFacts;
import io.steadfast.router.model.RouterObservation;
import io.steadfast.router.model.ModelProperties;
import io.steadfast.router.model.TopologyModels;
import io.steadfast.router.recovery.RecoveryOrchestrator;
import io.steadfast.router.topology.TopologyRepository;
import io.steadfast.runtime.task.TaskSettings;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The delay model of the deployed topologies ({@link TopologyModels}), fed by the router's own view of them. Hosts
 * batch their output with {@link TaskSettings#defaults()}, which the model's channel delays assume.
 */
@Configuration(proxyBeanMethods = false)
class ModelConfiguration {

    @Bean
    CheckpointFacts checkpointFacts(CheckpointCoordinators coordinators, CheckpointRecords records) {
        return new CheckpointFacts(coordinators, records);
    }

    @Bean
    TopologyModels topologyModels(TopologyRepository topologies, HeartbeatFailureDetector detector,
                                  CheckpointCoordinators coordinators, CheckpointFacts checkpoints,
                                  RouterProperties router, ModelProperties properties, Clock clock) {
        RouterObservation observation = new RouterObservation(router.suspicion().enabled()
                ? router.suspicion().minSilence() : router.heartbeatTimeout(), router.suggestedHeartbeatInterval(),
                RecoveryOrchestrator.PROGRESS_CHECK);
        return new TopologyModels(topologies, detector, coordinators, checkpoints, observation, properties,
                TaskSettings.defaults(), clock);
    }
}

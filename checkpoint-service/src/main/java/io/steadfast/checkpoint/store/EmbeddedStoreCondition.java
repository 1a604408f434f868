package io.steadfast.checkpoint.store;

import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when no MongoDB is configured ({@code spring.mongodb.uri} unset or blank). */
class EmbeddedStoreCondition implements Condition {

    static final String URI_PROPERTY = "spring.mongodb.uri";

    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String uri = context.getEnvironment().getProperty(URI_PROPERTY);
        return uri == null || uri.isBlank();
    }
}

package io.steadfast.examples;

import io.steadfast.api.operator.OperatorProvider;
import io.steadfast.api.operator.OperatorType;
import io.steadfast.examples.scoring.ScoringVersions;
import java.util.List;

/**
 * The operator types of the examples jar, found by {@link java.util.ServiceLoader} once the jar is on a service's
 * class path ({@code -Dloader.path=<jar>}; {@code ./steadfast local} passes it by default): the three versions of the
 * scoring operator.
 */
public final class ExampleOperators implements OperatorProvider {

    @Override
    public List<OperatorType<?>> operatorTypes() {
        return ScoringVersions.types();
    }
}

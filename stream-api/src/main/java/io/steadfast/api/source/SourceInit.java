package io.steadfast.api.source;

import io.steadfast.api.OperatorInfo;
import io.steadfast.api.annotation.PublicEvolving;
import java.time.InstantSource;

/** What a source factory gets when the runtime creates the source of one subtask. */
@PublicEvolving
public interface SourceInit<C> {

    C config();

    OperatorInfo operator();

    /** The clock to pace by; tests pass a manual one. Never read it to compute event contents. */
    InstantSource clock();
}

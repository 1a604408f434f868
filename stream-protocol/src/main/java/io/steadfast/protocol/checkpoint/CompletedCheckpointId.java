package io.steadfast.protocol.checkpoint;

import io.steadfast.runtime.plan.CheckpointId;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The annotated {@link CheckpointId} names a checkpoint that can have completed: 1 or more (0 is the id a topology
 * starts from before its first checkpoint). Null is valid; add {@code @NotNull} where it is required. The message is
 * the one {@code @Min(1)} gives, which these bodies had while their ids were bare numbers.
 */
@Documented
@Constraint(validatedBy = CompletedCheckpointId.Check.class)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
public @interface CompletedCheckpointId {

    String message() default "must be greater than or equal to 1";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Checks the id's value. */
    final class Check implements ConstraintValidator<CompletedCheckpointId, CheckpointId> {

        @Override
        public boolean isValid(CheckpointId id, ConstraintValidatorContext context) {
            return id == null || id.value() >= 1;
        }
    }
}

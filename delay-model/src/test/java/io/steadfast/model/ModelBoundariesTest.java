package io.steadfast.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The delay model is plain Java on the runtime's plan and ids: no Spring, no sockets, no JSON binding. */
class ModelBoundariesTest {

    @Test
    void theModelUsesOnlyTheJdkAndThePlanAndItsIds() {
        JavaClasses model = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.steadfast.model");
        assertThat(model).as("the model's classes, without which the rule below would pass on nothing")
                .extracting(javaClass -> javaClass.getSimpleName()).contains("DelayModel", "LongestPath");

        classes().that().resideInAPackage("io.steadfast.model..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.steadfast.model..", "java..",
                        "io.steadfast.runtime.plan..", "io.steadfast.runtime.topology..")
                .check(model); // throws AssertionError naming each dependency outside these packages
    }
}

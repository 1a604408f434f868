package io.steadfast.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

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

        classes().that().resideInAPackage("io.steadfast.model..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.steadfast.model..", "java..",
                        "io.steadfast.runtime.plan..", "io.steadfast.runtime.topology..")
                .check(model);
    }
}

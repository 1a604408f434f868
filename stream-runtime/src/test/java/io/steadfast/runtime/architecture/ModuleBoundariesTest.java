package io.steadfast.runtime.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The module boundaries of ARCHITECTURE.md, checked on the compiled classes. */
class ModuleBoundariesTest {

    private static JavaClasses steadfast;

    @BeforeAll
    static void importClasses() {
        steadfast = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.steadfast.api", "io.steadfast.runtime");
    }

    @Test
    void streamApiDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("io.steadfast.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.steadfast.api..", "java..")
                .check(steadfast);
    }

    @Test
    void streamRuntimeDoesNotUseSpring() {
        noClasses().that().resideInAPackage("io.steadfast.runtime..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .check(steadfast);
    }

    @Test
    void onlyTheDataPlanePackageImportsZeroMq() {
        noClasses().that().resideOutsideOfPackage("io.steadfast.runtime.dataplane..")
                .should().dependOnClassesThat().resideInAnyPackage("org.zeromq..", "zmq..")
                .check(steadfast);
    }

    @Test
    void theTaskRuntimeDoesNotReachIntoTheDataPlane() {
        noClasses().that().resideInAnyPackage("io.steadfast.runtime.task..", "io.steadfast.runtime.state..",
                        "io.steadfast.runtime.operator..", "io.steadfast.runtime.codec..")
                .should().dependOnClassesThat().resideInAPackage("io.steadfast.runtime.dataplane..")
                .check(steadfast);
    }

    @Test
    void theSpiDoesNotDependOnTheRuntime() {
        noClasses().that().resideInAPackage("io.steadfast.api..")
                .should().dependOnClassesThat().resideInAPackage("io.steadfast.runtime..")
                .check(steadfast);
    }
}

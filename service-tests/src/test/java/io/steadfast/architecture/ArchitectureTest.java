package io.steadfast.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries between modules (see docs/design.md), checked on the compiled classes, main and test, of every
 * module: the reactor builds this one after all the others (the root pom lists it after them), and a module whose
 * main classes are missing fails the test rather than passing unchecked.
 */
class ArchitectureTest {

    private static final List<String> MODULES = List.of("stream-api", "stream-runtime", "stream-protocol",
            "stream-testkit",
            "pe-host-service", "router-service", "checkpoint-service", "voter-service", "ops-dashboard",
            "local-cluster");

    /** What a service may use of the runtime's recovery package: its entry points and the values they exchange. */
    private static final Set<String> RECOVERY_API = Set.of("InPlaceRestore", "HeldDecisions", "DecisionSpan",
            "RecoveryCatchUp");

    /**
     * The packages that answer or send the bodies services exchange: controllers and clients. Not
     * {@code io.steadfast.router.host}: its records ({@code CatchUp}, {@code Redirected}, {@code InPlaceRecovery},
     * {@code RegisteredHost}) are the values the router's host client takes and returns, which its REST
     * implementation maps to and from the protocol's bodies.
     */
    private static final List<String> BODY_PACKAGES = List.of("io.steadfast.router.web..", "io.steadfast.host.web..",
            "io.steadfast.host.registration..", "io.steadfast.checkpoint.web..", "io.steadfast.cluster.client..",
            "io.steadfast.dashboard.router..");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        Path root = Path.of(System.getProperty("steadfast.root", ".."));
        List<Path> compiled = MODULES.stream()
                .flatMap(module -> Stream.of("classes", "test-classes").map(dir -> root.resolve(module).resolve("target")
                        .resolve(dir)))
                .filter(Files::isDirectory).toList();
        List<String> missing = MODULES.stream()
                .filter(module -> !Files.isDirectory(root.resolve(module).resolve("target").resolve("classes")))
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("no compiled classes of " + missing + " under " + root.toAbsolutePath()
                    + ": run this test in the reactor build (mvn verify from the root), or build every module first");
        }
        classes = new ClassFileImporter().importPaths(compiled);
    }

    /**
     * Services exchange only protocol bodies, never each other's classes; except that the voter-service runs on the
     * host's classes (it is a host of another kind), and so depends on them, and on nothing of another service.
     */
    @Test
    void noServiceUsesAnotherServicesClassesInMainOrTestCodeButTheVoterServiceTheHostsItRunsOn() {
        slices().matching("io.steadfast.(host|router|checkpoint|voter|dashboard)..")
                .should().notDependOnEachOther()
                .ignoreDependency(resideInAPackage("io.steadfast.voter.."), resideInAPackage("io.steadfast.host.."))
                .check(classes);
    }

    @Test
    void theProtocolModuleUsesSpringOnlyInItsWebAdapters() {
        noClasses().that().resideInAPackage("io.steadfast.protocol..")
                .and().resideOutsideOfPackages("io.steadfast.protocol.problem.web..", "io.steadfast.protocol.router.web..")
                .should().dependOnClassesThat().resideInAPackage("org.springframework..")
                .check(classes);
    }

    @Test
    void onlyTheRecoveryPackageAndTheWireCodecReadLoggedDecisions() {
        noClasses().that().resideOutsideOfPackages("io.steadfast.runtime.recovery..", "io.steadfast.runtime.codec..")
                .should().accessClassesThat().haveFullyQualifiedName("io.steadfast.runtime.codec.DecisionRecord")
                .check(classes);
    }

    @Test
    void servicesUseOnlyTheRecoveryPackagesEntryPointsAndValues() {
        DescribedPredicate<JavaClass> recoveryInternals = resideInAPackage("io.steadfast.runtime.recovery..")
                .and(DescribedPredicate.describe("not one of " + RECOVERY_API,
                        type -> !RECOVERY_API.contains(topLevelName(type))));
        noClasses().that().resideInAnyPackage("io.steadfast.host..", "io.steadfast.router..",
                        "io.steadfast.checkpoint..", "io.steadfast.dashboard..", "io.steadfast.cluster..")
                .and().haveSimpleNameNotEndingWith("Test") // a test may build a real decision log to feed a host
                .should().dependOnClassesThat(are(recoveryInternals))
                .check(classes);
    }

    @Test
    void decisionsAreCollectedAndServedOnlyByTheHostsRecoveryPackageAndItsController() {
        noClasses().that().resideInAPackage("io.steadfast.host..")
                .and(resideOutside("io.steadfast.host.recovery..", "io.steadfast.host.web.."))
                .should().dependOnClassesThat().haveSimpleNameStartingWith("Decision")
                .check(classes);
    }

    /**
     * A body services exchange is a record of {@code io.steadfast.protocol..}, which both sides use, never a copy of
     * it written in one of them: the controllers and clients that send and read bodies define no record at all (a
     * test may, for a body it fakes).
     */
    @Test
    void bodiesTheServicesExchangeAreDefinedOnlyInTheProtocolModule() {
        noClasses().that(are(recordsOfMainCode())).should().resideInAnyPackage(BODY_PACKAGES.toArray(String[]::new))
                .check(classes);
    }

    /** Records compiled from a module's src/main (its target/classes), not from its tests. */
    private static DescribedPredicate<JavaClass> recordsOfMainCode() {
        return DescribedPredicate.describe("records of main code", type -> type.isAssignableTo(Record.class)
                && type.getSource().map(source -> source.getUri().toString().contains("/target/classes/"))
                        .orElse(false));
    }

    private static String topLevelName(JavaClass type) {
        String name = type.getName().substring(type.getPackageName().length() + 1);
        int nested = name.indexOf('$');
        return nested < 0 ? name : name.substring(0, nested);
    }

    private static DescribedPredicate<JavaClass> resideOutside(String... packages) {
        return DescribedPredicate.not(resideInAnyPackage(packages));
    }
}

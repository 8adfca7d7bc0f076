package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;

/** The suite's own rule for running two classes at once: each test class says whether it may, and locks Docker if it uses it. */
@BesideOthers("reads class files only")
class EndToEndSuiteTest {
    /** Classes of the Docker package that make or list no labelled resource: whether Docker is there, where it is. */
    private static final Set<String> READS_NO_RESOURCE = Set.of("DockerRequired", "DockerDaemon");

    @Test
    void everyTestClassIsEitherIsolatedOrSaysWhyItRunsBesideOthers() {
        List<JavaClass> tests = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages("io.envbench").stream()
                        .filter(c -> c.getEnclosingClass().isEmpty()
                                && !c.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.ABSTRACT))
                        .filter(c -> c.getAllMethods().stream()
                                .anyMatch(m -> m.isAnnotatedWith(Test.class)
                                        || m.isAnnotatedWith(ParameterizedTest.class)
                                        || m.isAnnotatedWith(TestFactory.class)
                                        || m.isAnnotatedWith(TestTemplate.class)))
                        .toList();
        List<String> wrong = tests.stream()
                .map(JavaClass::reflect)
                .filter(k -> k.isAnnotationPresent(Isolated.class) == k.isAnnotationPresent(BesideOthers.class))
                .map(k -> k.getName()
                        + (k.isAnnotationPresent(Isolated.class)
                                ? " is both @Isolated and @BesideOthers"
                                : " is neither @Isolated nor @BesideOthers: mark it @Isolated unless you can say why"
                                        + " it runs beside another class"))
                .sorted()
                .toList();
        assertEquals(List.of(), wrong);
        List<String> unlocked = tests.stream()
                .filter(c -> c.reflect().isAnnotationPresent(BesideOthers.class))
                .filter(EndToEndSuiteTest::usesDocker)
                .filter(c -> Arrays.stream(c.reflect().getAnnotationsByType(ResourceLock.class))
                        .noneMatch(l -> l.value().equals(SharedResources.LABELLED_DOCKER)))
                .map(c -> c.getName()
                        + " uses Docker beside others without @ResourceLock(SharedResources.LABELLED_DOCKER)")
                .toList();
        assertEquals(List.of(), unlocked);
        System.out.printf(
                "%d test classes, %d of them may run beside another%n",
                tests.size(),
                tests.stream()
                        .filter(c -> c.reflect().isAnnotationPresent(BesideOthers.class))
                        .count());
    }

    /** Uses Docker's labelled resources in its own code: Docker's classes beyond the two that make none, or the suite's own Docker handle. */
    private static boolean usesDocker(JavaClass c) {
        return c.getDirectDependenciesFromSelf().stream()
                        .anyMatch(d -> d.getTargetClass().getPackageName().equals("io.envbench.launch.docker")
                                && !READS_NO_RESOURCE.contains(
                                        d.getTargetClass().getSimpleName()))
                || c.getMethodCallsFromSelf().stream()
                        .anyMatch(m -> m.getTargetOwner().isEquivalentTo(Jmeter.class)
                                && m.getName().equals("docker"));
    }
}

package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;

/** The suite's own rule for running two classes at once: each test class says whether it may. */
@BesideOthers("reads class files only")
class EndToEndSuiteTest {
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
        System.out.printf(
                "%d test classes, %d of them may run beside another%n",
                tests.size(),
                tests.stream()
                        .filter(c -> c.reflect().isAnnotationPresent(BesideOthers.class))
                        .count());
    }
}

package io.envbench.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.envbench.e2e.BesideOthers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The floors of ARCHITECTURE.md, checked on the compiled main code of every module: an import that runs back up a
 * floor, or round between two packages, fails the build and names both classes.
 */
@BesideOthers("reads class files only")
class ArchitectureTest {
    /** Every module with main code, in the order Maven builds them (this module is built last). */
    private static final List<String> MODULES =
            List.of("envbench-core", "envbench-report", "envbench-cli", "jmeter-plugin", "controller-gui");

    private static JavaClasses main;

    @BeforeAll
    static void readMainCode() {
        Path root = Path.of(System.getProperty("envbench.root", "../.."));
        List<Path> folders = MODULES.stream()
                .map(m -> root.resolve(m).resolve("target/classes"))
                .toList();
        for (Path f : folders) {
            assertTrue(
                    Files.isDirectory(f.resolve("io/envbench")),
                    f + " holds no compiled classes: build every module first (mvn verify from the top folder)");
        }
        main = new ClassFileImporter().importPaths(folders);
    }

    @Test
    void floorsOnlyPointDown() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .ensureAllClassesAreContainedInArchitecture()
                .layer("base")
                .definedBy("io.envbench.base..")
                .layer("host")
                .definedBy("io.envbench.host..")
                .layer("launch")
                .definedBy("io.envbench.launch..")
                .layer("control")
                .definedBy("io.envbench.control..")
                .layer("measure")
                .definedBy("io.envbench.measure..")
                .layer("study")
                .definedBy("io.envbench.study..")
                .layer("report")
                .definedBy("io.envbench.report..")
                .layer("cli")
                .definedBy("io.envbench.cli..")
                .layer("controller")
                .definedBy("io.envbench.controller..")
                .layer("plugin")
                .definedBy("io.envbench.jmeter..")
                .whereLayer("cli")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("controller")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("plugin")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("report")
                .mayOnlyBeAccessedByLayers("cli", "controller", "plugin")
                .whereLayer("study")
                .mayOnlyBeAccessedByLayers("report", "cli", "controller", "plugin")
                .whereLayer("measure")
                .mayOnlyBeAccessedByLayers("study", "report", "cli", "controller", "plugin")
                .whereLayer("control")
                .mayOnlyBeAccessedByLayers("measure", "study", "report", "cli", "controller", "plugin")
                .whereLayer("launch")
                .mayOnlyBeAccessedByLayers("control", "measure", "study", "report", "cli", "controller", "plugin")
                .whereLayer("host")
                .mayOnlyBeAccessedByLayers(
                        "launch", "control", "measure", "study", "report", "cli", "controller", "plugin")
                .check(main);
    }

    /**
     * Core speaks its own types to the modules above it: docker-java stays inside core, so a front end, a report or
     * the plugin reaches a daemon through core's connection, never a client of its own.
     */
    @Test
    void onlyCoreSpeaksToDockerJava() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "io.envbench.base..",
                        "io.envbench.host..",
                        "io.envbench.launch..",
                        "io.envbench.control..",
                        "io.envbench.measure..",
                        "io.envbench.study..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.github.dockerjava..")
                .check(main);
    }

    @Test
    void noPackagesImportEachOtherRound() {
        slices().matching("io.envbench.(**)").should().beFreeOfCycles().check(main);
    }
}

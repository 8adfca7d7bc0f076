package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import io.envbench.measure.results.Sample;
import org.apache.jmeter.gui.action.template.Template;
import org.apache.jmeter.gui.action.template.TemplateManager;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EnvBench's templates in the assembled JMeter: listed by File > Templates next to JMeter's own (read by JMeter's
 * TemplateManager from the assembled bin/user.properties), and each one runs headless as it comes, on bare metal.
 */
@BesideOthers("bare-metal nginx on ports 18171-18172; no Docker")
class TemplatesTest {
    static final String COMPARE = "EnvBench: compare environments";
    static final String ONE = "EnvBench: one environment";

    @TempDir
    Path dir;

    @Test
    void fileTemplatesListsEnvBenchsTemplatesBesideJmetersOwn() throws Exception {
        JMeterUtils.setJMeterHome(Jmeter.HOME.toString());
        JMeterUtils.loadJMeterProperties(
                Jmeter.HOME.resolve("bin/jmeter.properties").toString());
        Properties user = new Properties();
        try (Reader r = Files.newBufferedReader(Jmeter.HOME.resolve("bin/user.properties"))) {
            user.load(r);
        }
        JMeterUtils.getJMeterProperties().putAll(user); // as JMeter does at start
        Set<String> names = Arrays.stream(TemplateManager.getInstance().reset().getTemplateNames())
                .collect(Collectors.toSet());
        assertTrue(names.containsAll(List.of(COMPARE, ONE)), names.toString());
        assertTrue(names.contains("Recording"), "JMeter's own templates are still listed: " + names);
        for (String name : List.of(COMPARE, ONE)) {
            Template t = TemplateManager.getInstance().getTemplateByName(name);
            assertTrue(t.isTestPlan());
            Path jmx = Path.of(JMeterUtils.getJMeterHome(), t.getFileName());
            assertTrue(Files.isRegularFile(jmx), name + ": " + jmx);
            assertFalse(t.getDescription().isBlank());
        }
    }

    private static void assertRanOnBare(List<Sample> samples, String startLabel) {
        assertTrue(
                samples.stream().anyMatch(s -> s.label().equals(startLabel) && s.success()),
                "no successful start: " + samples.size());
        long pages = samples.stream().filter(s -> s.label().equals("GET page")).count();
        assertTrue(pages > 10, "pages: " + pages);
        assertTrue(samples.stream().allMatch(s -> s.environment().equals("bare")), "every sample tagged bare");
        assertTrue(samples.stream().allMatch(Sample::success), "errors");
    }

    @Test
    void theCompareTemplateRunsTheEnvironmentsSelected() throws Exception {
        Path jtl = dir.resolve("compare.jtl");
        List<Sample> samples = Jmeter.run(
                Jmeter.HOME.resolve("bin/templates/envbench-compare-environments.jmx"),
                jtl,
                List.of(
                        "-Jenvbench.env=bare",
                        "-Jenvbench.duration.seconds=2",
                        "-Jenvbench.threads=2",
                        "-Jenvbench.target.port=18171"));
        assertRanOnBare(samples, "EnvBench start bare");
        assertEquals(
                1,
                samples.stream()
                        .filter(s -> s.label().startsWith("EnvBench start"))
                        .count(),
                "one start: the others are not selected");
    }

    @Test
    void theOneEnvironmentTemplateStartsItOnceInItsSetUpThreadGroup() throws Exception {
        Path jtl = dir.resolve("one.jtl");
        List<Sample> samples = Jmeter.run(
                Jmeter.HOME.resolve("bin/templates/envbench-one-environment.jmx"),
                jtl,
                List.of(
                        "-Jenvbench.environment=bare",
                        "-Jenvbench.runtime=bare",
                        "-Jenvbench.duration.seconds=2",
                        "-Jenvbench.threads=2",
                        "-Jenvbench.target.port=18172"));
        assertRanOnBare(samples, "EnvBench start environment");
        assertEquals(
                1,
                samples.stream()
                        .filter(s -> s.label().startsWith("EnvBench start"))
                        .count(),
                "started once");
    }
}

package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The assembled JMeter is laid out like the official 5.6.3 binary and logs: its lib/ holds the official
 * jars (so SLF4J finds log4j), lib/junit exists, and a headless run writes JMeter's and EnvBench's log
 * lines to the -j file. No Docker needed.
 */
@BesideOthers("reads the assembled distribution only")
class DistributionLayoutTest {
    @TempDir
    Path dir;

    @Test
    void libHoldsTheOfficialJarsAndNothingElse() throws IOException {
        Map<String, Long> official = new TreeMap<>();
        for (String line : Files.readAllLines(Jmeter.ROOT.resolve("jmeter-dist/official-lib-5.6.3.csv"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] sizeName = line.split(",", 2);
                official.put(sizeName[1], Long.parseLong(sizeName[0]));
            }
        }
        Map<String, Long> assembled = new TreeMap<>();
        try (Stream<Path> jars = Files.list(Jmeter.HOME.resolve("lib"))) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                assembled.put(jar.getFileName().toString(), Files.size(jar));
            }
        }
        assertTrue(assembled.remove("jorphan.jar") != null, "JMeter's own lib/jorphan.jar");
        for (String tls : List.of("bcprov", "bcpkix", "bcutil")) {
            // the plugin's TLS libraries: signed, so beside it, and in lib/ so that JMeter does not scan them
            assertTrue(
                    assembled.keySet().removeIf(n -> n.startsWith(tls + "-jdk18on-")),
                    tls + " in lib/: " + assembled.keySet());
        }
        Map<String, Long> missing = new TreeMap<>(official);
        missing.entrySet().removeAll(assembled.entrySet());
        Map<String, Long> extra = new TreeMap<>(assembled);
        extra.entrySet().removeAll(official.entrySet());
        assertTrue(
                missing.isEmpty() && extra.isEmpty(),
                "lib/ against the official 5.6.3 list (name=bytes): missing or different " + missing
                        + ", not in the official lib/ or different " + extra);
        assertTrue(Files.isDirectory(Jmeter.HOME.resolve("lib/ext")));
        assertTrue(Files.isDirectory(Jmeter.HOME.resolve("lib/junit")), "the launcher puts lib/junit on the classpath");
    }

    @Test
    void pluginJarLeavesSlf4jToJmeter() throws IOException {
        try (ZipFile jar = new ZipFile(
                Jmeter.HOME.resolve("lib/ext/envbench-jmeter-plugin.jar").toFile())) {
            List<String> slf4j = jar.stream()
                    .map(ZipEntry::getName)
                    .filter(n -> n.toLowerCase().contains("slf4j"))
                    .toList();
            assertEquals(List.of(), slf4j);
        }
    }

    @Test
    void aHeadlessRunLogsJmeterAndEnvBenchIntoTheLogFile() throws Exception {
        // a Debug Sampler, and a Target Environment sampler whose bad runtime fails before anything starts
        // the Debug Sampler named by an EnvBench function: JMeter found it through META-INF/services
        Path plan = Jmeter.plan(
                dir.resolve("log.jmx"),
                "",
                Jmeter.DEBUG_SAMPLER.replace("testname=\"debug\"", "testname=\"${__envbenchSelected(bare)}\"") + """
                <io.envbench.jmeter.samplers.TargetEnvironmentSampler guiclass="TestBeanGUI" testclass="io.envbench.jmeter.samplers.TargetEnvironmentSampler" testname="EnvBench start">
                  <stringProp name="action">switch</stringProp>
                  <stringProp name="environment">nowhere</stringProp>
                  <stringProp name="runtime">vm</stringProp>
                </io.envbench.jmeter.samplers.TargetEnvironmentSampler>
                <hashTree/>
                """,
                1,
                0);
        Path jtl = dir.resolve("x.jtl");
        List<Sample> samples = Jmeter.run(plan, jtl, List.of());

        assertEquals(List.of(true, false), samples.stream().map(Sample::success).toList());
        assertEquals("true", samples.get(0).label(), "__envbenchSelected found and run");
        Path log = dir.resolve("x.jtl.log");
        assertTrue(Files.isRegularFile(log), "no -j log file");
        String text = Files.readString(log);
        assertTrue(text.contains("INFO o.a.j.JMeter: Version 5.6.3"), "JMeter's start lines:\n" + text);
        assertTrue(text.contains("INFO o.a.j.e.StandardJMeterEngine: Running the test!"), text);
        assertTrue(
                text.contains("WARN i.e.j.s.TargetEnvironmentSampler: EnvBench: runtime: 'vm' is not a placement"),
                "EnvBench's warning:\n" + text);
        // every jar of lib/ext lists its elements: JMeter opens none of their classes before the test starts,
        // which took seconds that a Precise Throughput Timer's schedule had already counted
        List<String> scans =
                text.lines().filter(l -> l.contains("Will scan jar")).toList();
        assertEquals(List.of(), scans, "jars JMeter scanned");
        List<String> errors = text.lines().filter(l -> l.contains(" ERROR ")).toList();
        assertEquals(List.of(), errors, "errors in jmeter.log");

        String console = Files.readString(dir.resolve("x.jtl.out"));
        assertFalse(console.contains("lib/junit"), console);
        assertFalse(console.contains("SLF4J"), "SLF4J found no provider or a wrong binding:\n" + console);
        assertTrue(console.contains("... end of run"), console);
        List<String> stackTraces = console.lines()
                .filter(l -> l.startsWith("\tat ") || l.contains("Exception"))
                .collect(Collectors.toList());
        assertEquals(List.of(), stackTraces, "stack traces on the console");
    }
}

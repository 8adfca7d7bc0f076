package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import io.envbench.base.environment.TargetStartException;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.Sample;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Assertions;

/** The assembled JMeter 5.6.3 (jmeter-dist) with our jar in lib/ext, run as a user runs it. */
final class Jmeter {
    static final Path ROOT = Path.of(System.getProperty("envbench.root", "../.."))
            .toAbsolutePath()
            .normalize();
    static final Path HOME = Path.of(System.getProperty("envbench.jmeter.home", ROOT + "/jmeter-dist/target/jmeter"));
    static final Path STATIC_WEB = ROOT.resolve("testplans/static-web.jmx");

    private Jmeter() {}

    /** A short static-web run: 1 s warm-up, 2 s light, 3 s saturation with 4 threads. */
    /**
     * JMeter's engine in this JVM, as its GUI runs a plan: JMeter home, jmeter.properties and user.properties of the
     * assembled JMeter, the targets folder and {@code envbench.env=bare}; returns JMeter's properties for more.
     */
    static Properties inThisJvm() throws IOException {
        JMeterUtils.setJMeterHome(HOME.toString());
        JMeterUtils.loadJMeterProperties(HOME.resolve("bin/jmeter.properties").toString());
        Properties user = new Properties();
        try (Reader r = Files.newBufferedReader(HOME.resolve("bin/user.properties"))) {
            user.load(r);
        }
        Properties props = JMeterUtils.getJMeterProperties();
        props.putAll(user);
        props.setProperty("envbench.targets.dir", ROOT.resolve("targets").toString());
        props.setProperty("envbench.env", "bare");
        return props;
    }

    static List<String> shortRun(String env) {
        return List.of(
                "-Jenvbench.env=" + env,
                "-Jenvbench.warmup.seconds=1",
                "-Jenvbench.light.seconds=2",
                "-Jenvbench.saturation.seconds=3",
                "-Jenvbench.threads=4");
    }

    /**
     * Writes a plan of one thread group (one thread) that runs {@code samplers} {@code loops} times, or with
     * {@code loops} -1 for {@code seconds}; {@code planElements} sit at the Test Plan level. Both are JMX
     * fragments, each element followed by its {@code <hashTree/>}.
     */
    static Path plan(Path file, String planElements, String samplers, int loops, int seconds) throws IOException {
        Files.writeString(file, """
                <?xml version="1.0" encoding="UTF-8"?>
                <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
                  <hashTree>
                    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="plan"/>
                    <hashTree>
                      %s
                      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="load">
                        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">
                          <stringProp name="LoopController.loops">%d</stringProp>
                          <boolProp name="LoopController.continue_forever">false</boolProp>
                        </elementProp>
                        <stringProp name="ThreadGroup.num_threads">1</stringProp>
                        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
                        <boolProp name="ThreadGroup.scheduler">%b</boolProp>
                        <stringProp name="ThreadGroup.duration">%d</stringProp>
                        <stringProp name="ThreadGroup.delay"></stringProp>
                      </ThreadGroup>
                      <hashTree>
                        %s
                      </hashTree>
                    </hashTree>
                  </hashTree>
                </jmeterTestPlan>
                """.formatted(planElements, loops, loops < 0, seconds, samplers));
        return file;
    }

    /** JMeter's Debug Sampler, for plans that need a sample but no target. */
    static final String DEBUG_SAMPLER = """
            <DebugSampler guiclass="TestBeanGUI" testclass="DebugSampler" testname="debug">
              <boolProp name="displayJMeterProperties">false</boolProp>
              <boolProp name="displayJMeterVariables">true</boolProp>
              <boolProp name="displaySystemProperties">false</boolProp>
            </DebugSampler>
            <hashTree/>
            """;

    static Process start(Path plan, Path jtl, List<String> props) throws IOException {
        return start(plan, jtl, props, jtl.getParent());
    }

    /** JMeter run in {@code workDir} (by default the JTL's folder). */
    static Process start(Path plan, Path jtl, List<String> props, Path workDir) throws IOException {
        return start(plan, jtl, props, workDir, jtl.getParent());
    }

    /**
     * JMeter run in {@code workDir}, its log and console output ({@code JTL-NAME.log}, {@code .out}) in {@code
     * outputDir}: elsewhere than a JTL on a disk made to fill.
     */
    static Process start(Path plan, Path jtl, List<String> props, Path workDir, Path outputDir) throws IOException {
        return start(HOME, plan, jtl, props, workDir, outputDir);
    }

    /** The JMeter installed in {@code home} (the assembled one, or another such as {@link StockJmeter}'s). */
    static Process start(Path home, Path plan, Path jtl, List<String> props, Path workDir, Path outputDir)
            throws IOException {
        Path named = outputDir.resolve(jtl.getFileName());
        assertTrue(Files.isRegularFile(home.resolve("bin/ApacheJMeter.jar")), "JMeter missing in " + home);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                home.resolve("bin/ApacheJMeter.jar").toString(),
                "-n",
                "-t",
                plan.toString(),
                "-l",
                jtl.toString(),
                "-j",
                named.resolveSibling(named.getFileName() + ".log").toString()));
        cmd.addAll(props);
        return new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(
                        named.resolveSibling(named.getFileName() + ".out").toFile())
                .start();
    }

    /** Runs JMeter to its end (bounded) and returns the samples of its JTL. */
    static List<Sample> run(Path plan, Path jtl, List<String> props) throws Exception {
        return run(plan, jtl, props, jtl.getParent());
    }

    static List<Sample> run(Path plan, Path jtl, List<String> props, Path workDir) throws Exception {
        return run(HOME, plan, jtl, props, workDir);
    }

    static List<Sample> run(Path home, Path plan, Path jtl, List<String> props, Path workDir) throws Exception {
        Process p = start(home, plan, jtl, props, workDir, jtl.getParent());
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("JMeter did not finish in 180 s; see " + jtl + ".log");
        }
        assertTrue(
                p.exitValue() == 0,
                "JMeter exit " + p.exitValue() + ": "
                        + Files.readString(jtl.resolveSibling(jtl.getFileName() + ".out")));
        return samples(jtl);
    }

    static List<Sample> samples(Path jtl) throws IOException {
        List<Sample> out = new ArrayList<>();
        JtlReader.read(jtl, out::add);
        return out;
    }

    /** The last lines of JMeter's log of this run (for a failure's message). */
    static List<String> logTail(Path jtl, int lines) {
        try {
            List<String> all = Files.readAllLines(jtl.resolveSibling(jtl.getFileName() + ".log"));
            return all.subList(Math.max(0, all.size() - lines), all.size());
        } catch (IOException e) {
            return List.of("(no JMeter log: " + e + ")");
        }
    }

    /** The JTL's first lines, or why there are none (for a failure's message). */
    static List<String> linesQuietly(Path jtl) {
        try {
            List<String> all = Files.readAllLines(jtl);
            return all.subList(0, Math.min(all.size(), 10));
        } catch (IOException e) {
            return List.of("(no JTL: " + e + ")");
        }
    }

    /** Raw CSV lines of the JTL (for columns the statistics do not keep, like responseMessage). */
    static List<String> lines(Path jtl) throws IOException {
        return Files.readAllLines(jtl);
    }

    /**
     * After a test: nothing labelled by EnvBench is left in Docker. Without Docker ({@code null}: the test was skipped
     * before it started anything) there is nothing to check.
     */
    static void assertNothingLabelledLeft(DockerInventory docker) {
        if (docker == null) {
            return;
        }
        Assertions.assertEquals(List.of(), docker.containers());
        Assertions.assertEquals(0, docker.networks());
        Assertions.assertEquals(0, docker.volumes());
    }

    /**
     * The built-in HTTP plan with its Start Gate disabled, written into {@code dir}: what the runner starts once the
     * environment is up, every property on the command line (the benchmarks' reference for starting JMeter ahead).
     */
    static Path builtinPlanWithoutGate(Path dir) throws IOException {
        String gate = "testname=\"EnvBench Start Gate\" enabled=";
        String plan = Files.readString(ROOT.resolve("testplans/http-load.jmx"));
        if (!plan.contains(gate + "\"true\"")) {
            throw new AssertionError("the built-in plan's gate is no longer found; it cannot be disabled");
        }
        return Files.writeString(
                dir.resolve("http-load-no-gate.jmx"), plan.replace(gate + "\"true\"", gate + "\"false\""));
    }

    /** Docker for tests: skipped on a laptop without it, a failure under CI=true. */
    static DockerInventory docker() {
        try {
            return new DockerInventory(DockerDaemon.fromEnvironment());
        } catch (TargetStartException e) {
            DockerRequired.require(false, "Docker", e.getMessage()); // fails under CI=true, else skips
            return null;
        }
    }
}

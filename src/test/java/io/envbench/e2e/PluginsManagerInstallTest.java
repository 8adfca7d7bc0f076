package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.launch.docker.DockerInventory;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * EnvBench installed as a JMeter user installs a plugin: a stock JMeter 5.6.3 that EnvBench is not in
 * ({@link StockJmeter}), the Plugins Manager from Maven Central (kg.apc:jmeter-plugins-manager and its command-line
 * runner kg.apc:cmdrunner) reading the local repository file {@code ./envbench package} writes
 * (jmeter-plugin/target/release/envbench-repo.json); then static-web.jmx runs with it headless, then the Plugins
 * Manager removes it and lib/ is as before. Nothing is asked of jmeter-plugins.org. {@code bare} needs nginx on the host
 * ({@code ./envbench setup}), {@code docker-bridge} a Docker engine (skipped without one, failed under CI=true).
 */
@BesideOthers("its containers and port 18080 are locked; it asserts no rate or time")
@ResourceLock(SharedResources.LABELLED_DOCKER)
@ResourceLock(SharedResources.PORT_18080)
class PluginsManagerInstallTest {
    private static final Path RELEASE = Jmeter.ROOT.resolve("jmeter-plugin/target/release");
    private static final Path REPOSITORY = RELEASE.resolve("envbench-repo.json");
    private static final Path MANAGER_JARS = Path.of(System.getProperty("envbench.pluginsmanager.dir", ""));

    @TempDir
    Path dir;

    /** What the last Plugins Manager command printed, for a failure's message. */
    private List<String> lastOutput = List.of();

    @ParameterizedTest
    @ValueSource(strings = {"bare", "docker-bridge"})
    void installsRunsStaticWebAndUninstalls(String env) throws Exception {
        DockerInventory docker = env.startsWith("docker") ? Jmeter.docker() : null;
        long started = System.nanoTime();
        Path home = withPluginsManager(StockJmeter.copyTo(dir.resolve("jmeter")));
        JsonNode plugin = new ObjectMapper().readTree(REPOSITORY.toFile()).get(0);
        String version = plugin.path("versions").fieldNames().next();
        JsonNode release = plugin.path("versions").path(version);
        List<String> installed =
                new ArrayList<>(List.of("lib/ext/" + release.path("downloadUrl").asText()));
        release.path("libs").forEach(lib -> installed.add("lib/" + lib.asText()));

        assertEquals("[]", pluginsManager(home, "status"), "EnvBench is not in the stock JMeter");
        assertEquals("[envbench=[" + version + "]]", pluginsManager(home, "available"));
        List<String> before = files(home.resolve("lib"));

        pluginsManager(home, "install", "envbench");
        for (String file : installed) {
            assertTrue(
                    Files.isRegularFile(home.resolve(file)),
                    "installed: " + file + "; the Plugins Manager said:\n" + String.join("\n", lastOutput));
        }
        assertEquals("[envbench=" + version + "]", pluginsManager(home, "status"));
        long installedAt = System.nanoTime();

        Path jtl = dir.resolve(env + ".jtl");
        List<Sample> samples = Jmeter.run(home, Jmeter.STATIC_WEB, jtl, Jmeter.shortRun(env), dir);
        assertTrue(samples.size() > 100, "samples: " + samples.size());
        assertEquals(
                List.of(env),
                samples.stream().map(Sample::environment).distinct().toList());
        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                "no errors");
        String start = Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(",EnvBench start,"))
                .collect(Collectors.joining());
        assertTrue(
                start.contains(env.equals("bare") ? "host process pid" : "published=127.0.0.1:18080->8080/tcp"), start);
        long ranAt = System.nanoTime();

        pluginsManager(home, "uninstall", "envbench");
        assertEquals("[]", pluginsManager(home, "status"));
        assertEquals(before, files(home.resolve("lib")), "lib/ as before the install");
        assertEquals(List.of(), StockJmeter.envBenchFiles(home));
        Jmeter.assertNothingLabelledLeft(docker);
        System.out.printf(
                "Plugins Manager (%s): set up and install %.1f s, static-web.jmx %.1f s, uninstall %.1f s%n",
                env, (installedAt - started) / 1e9, (ranAt - installedAt) / 1e9, (System.nanoTime() - ranAt) / 1e9);
    }

    /**
     * The Plugins Manager added as its page says: its jar in lib/ext, cmdrunner in lib, its installer run; and the
     * lines the README asks for in user.properties (what the GUI reads; the command line reads jmeter.properties only,
     * so {@link #pluginsManager} passes the repository as a system property, as JVM_ARGS does for the script).
     */
    private Path withPluginsManager(Path home) throws Exception {
        Path manager = jar(MANAGER_JARS, "jmeter-plugins-manager-");
        Files.copy(manager, home.resolve("lib/ext").resolve(manager.getFileName()));
        Path cmdrunner = jar(MANAGER_JARS, "cmdrunner-");
        Files.copy(cmdrunner, home.resolve("lib").resolve(cmdrunner.getFileName()));
        run(
                home,
                List.of(
                        java(),
                        "-cp",
                        "lib/ext/" + manager.getFileName(),
                        "org.jmeterplugins.repository.PluginManagerCMDInstaller"));
        assertTrue(Files.isRegularFile(home.resolve("bin/PluginsManagerCMD.sh")), "the installer wrote its script");
        Files.writeString(
                home.resolve("bin/user.properties"),
                "\nsample_variables=envbench.env\nenvbench.targets.dir=" + Jmeter.ROOT.resolve("targets")
                        + "\njpgc.repo.address=" + REPOSITORY + "\njpgc.repo.sendstats=false\n",
                StandardOpenOption.APPEND);
        return home;
    }

    /**
     * PluginsManagerCMD.sh's command with cmdrunner 2.3 (the script the installer writes names 2.2): its last output
     * line. Changes are made by a process the Plugins Manager starts in its JVM's shutdown hook (SafeDeleter); this
     * waits for that process to end. Not for the log it names: log4j, stopping in its own shutdown hook, may drop that
     * line.
     */
    private String pluginsManager(Path home, String... args) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> cmd = new ArrayList<>(List.of(
                java(),
                "-Djava.awt.headless=true",
                "-Djava.io.tmpdir=" + tmp,
                "-Djpgc.repo.address=" + REPOSITORY,
                "-Djpgc.repo.sendstats=false",
                "-jar",
                "lib/" + jar(home.resolve("lib"), "cmdrunner-").getFileName(),
                "--tool",
                "org.jmeterplugins.repository.PluginManagerCMD"));
        cmd.addAll(List.of(args));
        List<String> out = run(home, cmd);
        lastOutput = out;
        assertFalse(
                out.stream().anyMatch(l -> l.contains("JARSourceHTTP")),
                "nothing asked of a repository on the network: " + out);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        // its command line names its files in the JVM's temporary folder, this test's own
        while (ProcessHandle.allProcesses()
                .anyMatch(ph -> ph.info()
                        .commandLine()
                        .filter(c -> c.contains("SafeDeleter") && c.contains(tmp.toString()))
                        .isPresent())) {
            if (System.nanoTime() > deadline) {
                fail("the Plugins Manager's changes did not end in 60 s: " + out);
            }
            Thread.sleep(100);
        }
        return out.get(out.size() - 1);
    }

    private List<String> run(Path home, List<String> cmd) throws Exception {
        Path output = Files.createTempFile(dir, "out", ".txt");
        Process p = new ProcessBuilder(cmd)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(cmd + " did not end in 120 s: " + Files.readString(output));
        }
        List<String> out = Files.readAllLines(output);
        assertEquals(0, p.exitValue(), cmd + ": " + String.join("\n", out));
        return out;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static Path jar(Path folder, String prefix) throws IOException {
        try (Stream<Path> jars = Files.list(folder)) {
            return jars.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + prefix + "*.jar in " + folder));
        }
    }

    private static List<String> files(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.map(folder::relativize).map(Path::toString).sorted().toList();
        }
    }
}

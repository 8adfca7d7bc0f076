package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.envbench.launch.docker.DockerInventory;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.docker.TlsDockerDaemon;
import io.envbench.measure.metrics.DockerStatsStream;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.results.Sample;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code testplans/static-web.jmx} in the real JMeter with {@code -Jenvbench.docker.host=tcp://127.0.0.2:PORT} and the
 * TLS properties: the container runs on a second, TLS-only dockerd ({@link TlsDockerDaemon}), its port is published
 * on that daemon's host and the plan's load goes there; a wrong certificate folder fails the start sample with the
 * property named. The plan's Resource Monitor reads that container through Docker's stats stream, and its metrics file
 * names that source. It reaches the TLS daemon only through {@link TlsDockerDaemon}'s own client: here the plugin jar's
 * shaded copy of EnvBench's Docker classes comes first on the class path.
 */
@Isolated
class RemoteDockerPlanTest {
    static TlsDockerDaemon tls;

    @TempDir
    Path dir;

    DockerInventory local;

    @BeforeAll
    static void startTheTlsDaemon() throws Exception {
        Jmeter.docker();
        TlsDockerDaemon.missingRequirement()
                .ifPresent(why -> DockerRequired.require(false, "a second dockerd with TLS", why));
        tls = TlsDockerDaemon.start();
        tls.copyImage("envbench/nginx-static:latest");
    }

    @AfterAll
    static void stopTheTlsDaemon() {
        if (tls != null) {
            tls.close();
        }
    }

    @AfterEach
    void nothingLeftOnEitherDaemon() throws Exception {
        Jmeter.assertNothingLabelledLeft(Jmeter.docker());
        assertEquals(0, tls.containerCount(), "nothing left on the TLS daemon");
    }

    private List<String> props(String certPath) {
        List<String> p = new ArrayList<>(Jmeter.shortRun("docker-bridge"));
        p.add("-Jenvbench.docker.host=" + tls.address());
        p.add("-Jenvbench.docker.tls.verify=true");
        p.add("-Jenvbench.docker.cert.path=" + certPath);
        return p;
    }

    @Test
    void thePlanLoadsAContainerOfTheTlsDaemonOnThatDaemonsHost() throws Exception {
        Path jtl = dir.resolve("tls.jtl");
        List<Sample> samples =
                Jmeter.run(Jmeter.STATIC_WEB, jtl, props(tls.clientCerts().toString()));
        String start = Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(",EnvBench start,"))
                .collect(Collectors.joining());
        assertTrue(
                start.contains("published=" + TlsDockerDaemon.LISTEN_ADDRESS + ":18080->8080/tcp"),
                () -> start + "\n"
                        + String.join(
                                "\n",
                                Jmeter.logTail(jtl, 400).stream()
                                        .filter(l -> l.contains("EnvBench")
                                                || l.contains("ERROR")
                                                || l.contains("WARN")
                                                || l.contains("start"))
                                        .toList())
                        + "\nJTL:\n" + String.join("\n", Jmeter.linesQuietly(jtl)));
        assertTrue(start.contains("load to " + TlsDockerDaemon.LISTEN_ADDRESS + ":18080"), start);
        assertEquals(
                List.of(),
                samples.stream().filter(s -> !s.success()).map(Sample::label).toList(),
                "no errors");
        long gets = samples.stream().filter(s -> s.label().contains("GET")).count();
        assertTrue(gets > 100, "samples: " + gets);
        assertEquals(
                List.of("docker-bridge"),
                samples.stream().map(Sample::environment).distinct().toList());
        // the plan's Resource Monitor read the remote container through Docker's stats stream, and its file says so
        MetricsFile m = MetricsFile.read(dir.resolve("envbench-metrics.csv"));
        String cpu = "container.docker-bridge.cpu.pct";
        String mem = "container.docker-bridge.mem.bytes";
        assertEquals(
                Optional.of(DockerStatsStream.SOURCE),
                m.sourceOf(cpu),
                m.sources().toString());
        assertEquals(
                Optional.of(DockerStatsStream.SOURCE),
                m.sourceOf(mem),
                m.sources().toString());
        String env = m.environments().stream()
                .filter(e -> !m.over(e, mem).isEmpty())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row has " + mem + ": " + m.environments()));
        var memory = m.summary(env, mem);
        assertTrue(
                memory.samples() >= 2 && memory.average() > 0,
                "the remote container's memory, from the stream: " + memory);
        assertTrue(m.summary(env, cpu).peak() > 0, "nginx worked under load: " + m.summary(env, cpu));
        System.out.println("static-web.jmx on the TLS daemon: " + gets + " requests to "
                + TlsDockerDaemon.LISTEN_ADDRESS + ":18080, no errors; the container's figures from "
                + m.sourceOf(cpu).orElseThrow() + ", " + memory.samples() + " rows");
    }

    @Test
    void aWrongCertificateFolderFailsTheStartSampleNamingTheProperty() throws Exception {
        Path jtl = dir.resolve("nocerts.jtl");
        Jmeter.run(Jmeter.STATIC_WEB, jtl, props(dir.resolve("no-such-folder").toString()));
        String start = Jmeter.lines(jtl).stream()
                .filter(l -> l.contains(",EnvBench start,"))
                .collect(Collectors.joining());
        assertTrue(
                start.contains("envbench.docker.cert.path: '" + dir.resolve("no-such-folder") + "' is not a folder"),
                start);
        assertTrue(start.contains(",false,"), "the start sample failed: " + start);
        assertFalse(start.contains("at io.envbench"), "no stack trace: " + start);
    }
}

package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.envbench.measure.engines.RemoteEngine;
import io.envbench.measure.engines.RemoteEngines;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.ExperimentException;
import io.envbench.study.experiment.ExperimentFile;

/**
 * Remote JMeter engines for tests: {@code jmeter-server}s of the assembled JMeter on loopback, each with its own RMI
 * registry port ({@code server_port}) and object port ({@code server.rmi.localport}), RMI over SSL with a keystore made
 * here by the JDK's keytool as JMeter's {@code create-rmi-keystore.sh} makes it. Closing stops them and waits until
 * they are gone.
 */
final class JmeterEngines implements AutoCloseable {
    static final String PASSWORD = RemoteEngines.DEFAULT_PASSWORD;

    final Path keystore;
    final List<RemoteEngine> engines = new ArrayList<>();
    final List<Process> processes = new ArrayList<>();
    final List<Path> logs = new ArrayList<>();

    private JmeterEngines(Path keystore) {
        this.keystore = keystore;
    }

    /** Makes the keystore in {@code dir} and starts {@code count} engines; returns once each registry answers. */
    static JmeterEngines start(Path dir, int count) throws Exception {
        return start(dir, count, List.of());
    }

    /** As {@link #start(Path, int)}, each engine's command behind {@code prefix} (e.g. {@code taskset -c 0}). */
    static JmeterEngines start(Path dir, int count, List<String> prefix) throws Exception {
        JmeterEngines e = new JmeterEngines(keystore(dir.resolve("rmi_keystore.jks")));
        try {
            for (int i = 1; i <= count; i++) {
                e.startOne(dir, i, prefix);
            }
            for (int i = 0; i < count; i++) {
                e.awaitRegistry(i);
            }
            return e;
        } catch (Exception | AssertionError ex) {
            e.close();
            throw ex;
        }
    }

    /** {@code keytool -genkeypair -alias rmi -keyalg RSA -keysize 2048 -validity 7}, as create-rmi-keystore.sh. */
    static Path keystore(Path file) throws Exception {
        Files.deleteIfExists(file);
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-alias",
                        RemoteEngines.KEY_ALIAS,
                        "-keyalg",
                        "RSA",
                        "-keysize",
                        "2048",
                        "-validity",
                        "7",
                        "-keystore",
                        file.toString(),
                        "-storepass",
                        PASSWORD,
                        "-keypass",
                        PASSWORD,
                        "-dname",
                        "CN=EnvBench test engines")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool finished");
        assertEquals(0, p.exitValue(), "keytool: " + out);
        return file;
    }

    private void startOne(Path dir, int n, List<String> prefix) throws IOException {
        int registry = freePort();
        int object = freePort();
        Path log = dir.resolve("engine" + n + ".log");
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.rmi.server.hostname=127.0.0.1",
                "-jar",
                Jmeter.HOME.resolve("bin/ApacheJMeter.jar").toString(),
                "-s",
                "-j",
                log.toString(),
                "-Jserver_port=" + registry,
                "-Jserver.rmi.localport=" + object,
                "-Jserver.rmi.ssl.keystore.file=" + keystore,
                "-Jserver.rmi.ssl.keystore.password=" + PASSWORD,
                "-Jserver.rmi.ssl.truststore.file=" + keystore,
                "-Jserver.rmi.ssl.truststore.password=" + PASSWORD);
        Files.createDirectories(dir.resolve("engine" + n));
        List<String> all = new ArrayList<>(prefix);
        all.addAll(cmd);
        processes.add(new ProcessBuilder(all)
                .directory(dir.resolve("engine" + n).toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("engine" + n + ".out").toFile())
                .start());
        engines.add(new RemoteEngine("127.0.0.1", registry));
        logs.add(log);
    }

    private void awaitRegistry(int i) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            assertTrue(processes.get(i).isAlive(), "engine " + engines.get(i) + " exited: " + output(i));
            if (Files.exists(logs.get(i)) && Files.readString(logs.get(i)).contains("Bound to RMI registry")) {
                try (Socket s = new Socket()) {
                    s.connect(
                            new InetSocketAddress(
                                    InetAddress.getLoopbackAddress(),
                                    engines.get(i).port()),
                            1000);
                    return;
                } catch (IOException notYet) {
                    // bound but not accepting yet
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("engine " + engines.get(i) + " did not bind its RMI registry in 90 s: " + output(i));
    }

    String output(int i) throws IOException {
        Path out = logs.get(i).resolveSibling("engine" + (i + 1) + ".out");
        return Files.exists(out) ? Files.readString(out) : "";
    }

    RemoteEngines remoteEngines() {
        return RemoteEngines.of(engines, keystore);
    }

    /** The experiment file's lines for these engines, under {@code load:}. */
    String yaml() {
        return "  engines: ["
                + String.join(", ", engines.stream().map(RemoteEngine::toString).toList()) + "]\n" + "  rmiKeystore: "
                + keystore + "\n";
    }

    /**
     * An experiment file {@code name}.yaml in {@code dir}: bare nginx on {@code port}, one repetition, an http load of
     * {@code httpFields} (YAML lines under {@code http:}, e.g. {@code "threads: 2\nwarmupSeconds: 1\ndurationSeconds: 6"})
     * and {@code enginesYaml} under {@code load:} ({@link #yaml()}, or empty for the runner's own JMeter).
     */
    static Experiment bareNginx(Path dir, String name, int port, String httpFields, String enginesYaml)
            throws IOException, ExperimentException {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, """
                name: %s
                target: nginx-static
                port: %d
                environments:
                  - name: bare
                    placement: bare
                repetitions: 1
                load:
                  http:
                    path: /page-4k.html
                %s%s""".formatted(
                name, port, httpFields.lines().map(l -> "    " + l + "\n").collect(Collectors.joining()), enginesYaml));
        return ExperimentFile.read(file, Jmeter.ROOT.resolve("targets"));
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops every engine (SIGTERM, then SIGKILL after 10 s) and waits until it is gone. */
    @Override
    public void close() throws InterruptedException {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    boolean allStopped() {
        return processes.stream().noneMatch(Process::isAlive);
    }
}

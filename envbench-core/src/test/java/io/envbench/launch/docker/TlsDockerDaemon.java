package io.envbench.launch.docker;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.core.LocalDirectorySSLConfig;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import org.apache.commons.io.FileUtils;

/**
 * A second, real dockerd for a test, reached only over TLS with client certificates: it listens on nothing but
 * {@code tcp://127.0.0.2:PORT} (a loopback address other than 127.0.0.1, so a test can tell "published on the
 * daemon's host" from "published on 127.0.0.1"), with its own CA and certificates made by {@link TestPki}, its own
 * data root, exec root, pid file and empty configuration under a temp folder, and its own bridge
 * ({@value #BRIDGE}, {@value #BRIDGE_ADDRESS}) with no iptables rules, no masquerading and no IP forwarding, so it
 * changes no host setting and does not touch the main daemon: published ports go through docker-proxy. Needs root,
 * {@code dockerd} and {@code ip} (iproute2).
 *
 * <p>It talks to both daemons with docker-java clients of its own, not through EnvBench's {@link DockerConnection}: the
 * end-to-end tests load it next to the plugin jar, whose shaded copy of EnvBench's classes would be found first.
 *
 * <p>{@link #close()} removes everything it made, also after a failed start: the daemon's containers and images, the
 * daemon (and what it started), mounts under its folder, the bridge and the folder.
 */
public final class TlsDockerDaemon implements AutoCloseable {
    /** The bridge's name; one left by a killed test run is deleted before a start. */
    public static final String BRIDGE = "envbtls0";

    public static final String BRIDGE_ADDRESS = "10.213.7.1/24";
    /** The loopback address the daemon listens on, and its certificate's only subject alternative name. */
    public static final String LISTEN_ADDRESS = "127.0.0.2";

    private final Path root;
    private final int port;
    private final Path clientCerts;
    private final Path log;
    private Process dockerd;
    private List<ProcessHandle> started = List.of();
    private boolean bridgeMade;
    private final Thread onExit = new Thread(this::closeQuietly, "envbench-tls-dockerd-stop");

    private TlsDockerDaemon(Path root, int port) {
        this.root = root;
        this.port = port;
        this.clientCerts = root.resolve("client");
        this.log = root.resolve("dockerd.log");
    }

    /**
     * Why this machine cannot run one, or empty when it can: root, and {@code dockerd} and {@code ip} on the path.
     */
    public static Optional<String> missingRequirement() {
        try {
            String uid = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Uid:"))
                    .findFirst()
                    .orElse("Uid: -1")
                    .split("\\s+")[1];
            if (!uid.equals("0")) {
                return Optional.of("a second dockerd needs root (uid " + uid + ")");
            }
        } catch (IOException e) {
            return Optional.of("cannot read /proc/self/status: " + e);
        }
        for (String tool : List.of("dockerd", "ip", "docker-proxy")) {
            if (executable(tool) == null) {
                return Optional.of(tool + " is not installed (apt-get install docker.io iproute2)");
            }
        }
        return Optional.empty();
    }

    /** Makes the certificates and the bridge, starts dockerd and waits until it answers a TLS ping (at most 60 s). */
    public static TlsDockerDaemon start() throws IOException, InterruptedException {
        Path root = Files.createTempDirectory("envbtls");
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(LISTEN_ADDRESS), 0));
            port = s.getLocalPort();
        }
        TlsDockerDaemon d = new TlsDockerDaemon(root, port);
        Runtime.getRuntime().addShutdownHook(d.onExit);
        try {
            d.startDaemon();
            return d;
        } catch (IOException | InterruptedException | RuntimeException e) {
            d.close();
            throw e;
        }
    }

    private void startDaemon() throws IOException, InterruptedException {
        TestPki ca = TestPki.authority("envbench test CA");
        Path server = root.resolve("server");
        ca.writeServer(server, LISTEN_ADDRESS);
        ca.writeClient(clientCerts);
        Files.writeString(root.resolve("daemon.json"), "{}\n");

        run("ip", "link", "del", BRIDGE); // a bridge left by a killed run (fails when there is none)
        bridgeMade = true;
        runOrFail("ip", "link", "add", BRIDGE, "type", "bridge");
        runOrFail("ip", "addr", "add", BRIDGE_ADDRESS, "dev", BRIDGE);
        runOrFail("ip", "link", "set", BRIDGE, "up");

        List<String> cmd = List.of(
                executable("dockerd"),
                "--host",
                "tcp://" + LISTEN_ADDRESS + ":" + port,
                "--tlsverify",
                "--tlscacert",
                server.resolve("ca.pem").toString(),
                "--tlscert",
                server.resolve("cert.pem").toString(),
                "--tlskey",
                server.resolve("key.pem").toString(),
                "--config-file",
                root.resolve("daemon.json").toString(),
                "--data-root",
                root.resolve("data").toString(),
                "--exec-root",
                root.resolve("exec").toString(),
                "--pidfile",
                root.resolve("dockerd.pid").toString(),
                "--bridge",
                BRIDGE,
                "--iptables=false",
                "--ip-masq=false",
                "--ip-forward=false",
                // shares a system containerd (a Debian docker.io install runs one) without touching the main daemon's
                // containers
                "--containerd-namespace",
                "envbtls",
                "--containerd-plugins-namespace",
                "envbtls-plugins");
        dockerd = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            if (!dockerd.isAlive()) {
                throw new IOException("dockerd exited with " + dockerd.exitValue() + ":\n" + logTail());
            }
            try (DockerClient c = client()) {
                c.pingCmd().exec();
                started = dockerd.descendants().toList();
                return;
            } catch (IOException | RuntimeException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException("dockerd did not answer within 60 s (" + last + "):\n" + logTail());
    }

    /** {@code tcp://127.0.0.2:PORT}. */
    public String address() {
        return "tcp://" + LISTEN_ADDRESS + ":" + port;
    }

    /** The folder with this client's {@code ca.pem}, {@code cert.pem} and {@code key.pem}. */
    public Path clientCerts() {
        return clientCerts;
    }

    /** A folder of the temp folder for a test's own files; removed on close. */
    public Path scratch(String name) throws IOException {
        return Files.createDirectories(root.resolve("scratch").resolve(name));
    }

    /** The daemon as a JMeter user sets it: {@code envbench.docker.host}, {@code .tls.verify=true}, {@code .cert.path}. */
    public DockerDaemon daemon() {
        return DockerDaemon.configured(
                DockerDaemon.Settings.JMETER_PROPERTIES, address(), "true", clientCerts.toString());
    }

    /** Copies an image from the main daemon (docker save there, docker load here): this daemon pulls nothing. */
    public void copyImage(String image) throws IOException {
        DockerClientConfig local =
                DefaultDockerClientConfig.createDefaultConfigBuilder().build();
        try (DockerClient main = client(local);
                DockerClient here = client();
                InputStream saved = main.saveImageCmd(image).exec()) {
            here.loadImageCmd(saved).exec();
        }
    }

    /** How many containers the daemon has, running or not. */
    public int containerCount() throws IOException {
        try (DockerClient here = client()) {
            return here.listContainersCmd().withShowAll(true).exec().size();
        }
    }

    /** A new client of this daemon, over TLS with the client certificate; the caller closes it. */
    private DockerClient client() {
        return client(DefaultDockerClientConfig.createDefaultConfigBuilder()
                .withDockerHost(address())
                .withDockerTlsVerify(false)
                .withCustomSslConfig(new LocalDirectorySSLConfig(clientCerts.toString()))
                .build());
    }

    private static DockerClient client(DockerClientConfig config) {
        return DockerClientImpl.getInstance(
                config,
                new ApacheDockerHttpClient.Builder()
                        .dockerHost(config.getDockerHost())
                        .sslConfig(config.getSSLConfig())
                        .connectionTimeout(Duration.ofSeconds(3))
                        .responseTimeout(Duration.ofSeconds(120))
                        .build());
    }

    /** The last lines dockerd printed. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public synchronized void close() {
        List<String> failures = new ArrayList<>();
        if (dockerd != null && dockerd.isAlive()) {
            // the daemon is the test's alone: everything on it goes, so its stop leaves no container behind
            try (DockerClient here = client()) {
                for (Container c : here.listContainersCmd().withShowAll(true).exec()) {
                    here.removeContainerCmd(c.getId())
                            .withForce(true)
                            .withRemoveVolumes(true)
                            .exec();
                }
            } catch (IOException | RuntimeException e) {
                failures.add("containers: " + e.getMessage());
            }
            List<ProcessHandle> children = new ArrayList<>(started);
            children.addAll(dockerd.descendants().toList());
            dockerd.destroy(); // SIGTERM: dockerd stops its containerd and unmounts
            try {
                if (!dockerd.waitFor(30, TimeUnit.SECONDS)) {
                    failures.add("dockerd ignored SIGTERM for 30 s; killed");
                    dockerd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            children.stream().filter(ProcessHandle::isAlive).forEach(p -> {
                failures.add("left running after dockerd stopped: "
                        + p.info().command().orElse("pid " + p.pid()));
                p.destroyForcibly();
            });
        }
        unmountUnder(failures);
        if (bridgeMade) {
            run("ip", "link", "del", BRIDGE);
            bridgeMade = false;
        }
        try {
            FileUtils.deleteDirectory(root.toFile());
        } catch (IOException e) {
            failures.add("could not remove " + root + ": " + e.getMessage());
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException e) {
            // shutting down: this is the hook
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("the TLS daemon's teardown: " + String.join("; ", failures));
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
        }
    }

    /** Mounts dockerd left under its folder (after a kill), deepest first. */
    private void unmountUnder(List<String> failures) {
        List<String> mounts = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String point = line.split(" ")[4];
                if (point.startsWith(root.toString() + "/")) {
                    mounts.add(point);
                }
            }
        } catch (IOException e) {
            failures.add("mounts: " + e.getMessage());
            return;
        }
        Collections.reverse(mounts);
        for (String m : mounts) {
            if (run("umount", "-l", m) != 0) {
                failures.add("could not unmount " + m);
            }
        }
        if (!mounts.isEmpty()) {
            failures.add("dockerd left " + mounts.size() + " mount(s) under " + root + " (unmounted)");
        }
    }

    private static void runOrFail(String... cmd) throws IOException {
        if (run(cmd) != 0) {
            throw new IOException(String.join(" ", cmd) + " failed");
        }
    }

    private static int run(String... cmd) {
        try {
            List<String> line = new ArrayList<>(List.of(cmd));
            String resolved = executable(cmd[0]);
            if (resolved == null) {
                return -1;
            }
            line.set(0, resolved);
            Process p = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String executable(String name) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}

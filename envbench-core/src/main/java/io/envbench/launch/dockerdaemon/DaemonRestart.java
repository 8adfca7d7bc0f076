package io.envbench.launch.dockerdaemon;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.process.OwnSession;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restarts the Docker daemon of this host so that it reads its configuration file again, and waits (within
 * {@link #deadline()}) until it answers a ping. Two ways, chosen by how the daemon runs ({@link #howItRuns}):
 * <ul>
 *   <li>a systemd service (dockerd in {@code /system.slice/docker.service}): {@code systemctl restart docker.service};</li>
 *   <li>otherwise (started by hand or by {@code ./envbench setup} as {@code nohup dockerd >> LOG}): SIGTERM, wait until
 *       it exited (it stops its containers first), then the same command line with the same environment and working
 *       folder, in a session of its own, standard input {@code /dev/null}, output appended to the log it wrote to, so it
 *       outlives this JVM.</li>
 * </ul>
 * Refused (nothing stopped) for a daemon that is not reached through a local unix socket, and while containers run
 * that a restart would stop and that are not leftovers of EnvBench runs whose owner is gone: someone else's, or a live
 * run's; the message lists them. Thread-safe (holds no state between calls).
 */
public final class DaemonRestart implements DaemonControl {
    private static final Logger log = LoggerFactory.getLogger(DaemonRestart.class);
    /** How long a restart may take, stopping and starting, until the daemon answers. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(60);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DaemonRestart THIS_HOST = new DaemonRestart(Path.of("/proc"), DEFAULT_DEADLINE);

    private final Path procRoot;
    private final Duration deadline;

    /**
     * @param procRoot the procfs tree ({@code /proc})
     * @param deadline how long a restart may take until the daemon answers
     */
    public DaemonRestart(Path procRoot, Duration deadline) {
        this.procRoot = procRoot;
        this.deadline = deadline;
    }

    /** This host's daemon, through {@code /proc}, within {@link #DEFAULT_DEADLINE}. */
    public static DaemonRestart onThisHost() {
        return THIS_HOST;
    }

    public Duration deadline() {
        return deadline;
    }

    /** The dockerd serving {@code daemonAddress}; empty when none runs. @throws IOException for a daemon that is not local */
    public Optional<RunningDockerd> running(String daemonAddress) throws IOException {
        return RunningDockerd.listeningOn(procRoot, socketOf(daemonAddress));
    }

    @Override
    public Optional<DockerdCommandLine> commandLine(String daemonAddress) throws IOException {
        return running(daemonAddress).map(RunningDockerd::commandLine);
    }

    /** {@code {"unit":"docker.service"}}, or {@code {"argv":[...],"env":[...],"cwd":"...","log":"..."}}. */
    @Override
    public Optional<String> howItRuns(String daemonAddress) throws IOException {
        Optional<RunningDockerd> d = running(daemonAddress);
        if (d.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode how = JSON.createObjectNode();
        if (d.get().systemdUnit().isPresent() && isSystemd()) {
            how.put("unit", d.get().systemdUnit().get());
        } else {
            d.get().commandLine().arguments().forEach(how.putArray("argv")::add);
            d.get().environment().forEach(how.putArray("env")::add);
            how.put("cwd", d.get().workingDir().toString());
            how.put("log", d.get().log().map(Path::toString).orElse(""));
        }
        return Optional.of(JSON.writeValueAsString(how));
    }

    @Override
    public void restart(String daemonAddress, String howItRuns) throws IOException {
        Path socket = socketOf(daemonAddress);
        JsonNode how = JSON.readTree(howItRuns);
        Optional<RunningDockerd> before = RunningDockerd.listeningOn(procRoot, socket);
        if (before.isPresent()) {
            refuseWhenOthersRun(daemonAddress);
        }
        long t0 = System.nanoTime();
        long until = t0 + deadline.toNanos();
        Optional<Process> started = Optional.empty();
        if (how.hasNonNull("unit")) {
            systemctlRestart(how.get("unit").asText(), until);
        } else {
            if (before.isPresent()) {
                stop(before.get(), until);
            }
            started = Optional.of(start(how));
        }
        RunningDockerd after = awaitAnswer(daemonAddress, socket, before, started, how, until);
        log.info(
                "Docker daemon {} restarted in {} ms (dockerd PID {} -> {})",
                daemonAddress,
                (System.nanoTime() - t0) / 1_000_000,
                before.map(b -> Long.toString(b.pid())).orElse("none"),
                after.pid());
    }

    /** The socket of a {@code unix://} address; a clear refusal for any other. */
    static Path socketOf(String daemonAddress) throws DaemonConfigException {
        if (!daemonAddress.startsWith("unix://")) {
            throw new DaemonConfigException(
                    "the Docker daemon " + daemonAddress + " is not reached through a local unix socket: "
                            + "EnvBench restarts only the daemon of its own host (unix:///var/run/docker.sock); change the settings of "
                            + "that daemon on its host, or run without changing daemon settings");
        }
        return Path.of(URI.create(daemonAddress).getPath());
    }

    /** {@code route_localnet} of the default bridge {@code docker0}, when it exists. */
    @Override
    public List<Path> filesItChanges() {
        Path routeLocalnet = procRoot.resolve("sys/net/ipv4/conf/docker0/route_localnet");
        return Files.exists(routeLocalnet) ? List.of(routeLocalnet) : List.of();
    }

    @Override
    public void checkRestartAllowed(String daemonAddress) throws IOException {
        socketOf(daemonAddress);
        if (running(daemonAddress).isPresent()) {
            refuseWhenOthersRun(daemonAddress);
        }
    }

    private void refuseWhenOthersRun(String daemonAddress) throws IOException {
        DockerClient docker;
        try { // a client of its own: a question asked once, closed after, no owner's connection touched
            docker = DockerConnection.open(DockerDaemon.of(daemonAddress, Optional.empty()));
        } catch (TargetStartException e) {
            throw new IOException(
                    "the Docker daemon " + daemonAddress + " runs but does not answer (" + e.getMessage()
                            + "), so which containers a restart would stop cannot be told; it is not restarted",
                    e);
        }
        List<Container> running;
        try (docker) {
            running = docker.listContainersCmd().exec(); // running ones: a restart stops them
        }
        List<String> others = new ArrayList<>();
        for (Container c : running) {
            Map<String, String> labels = c.getLabels() == null ? Map.of() : c.getLabels();
            String name = (c.getNames() == null || c.getNames().length == 0
                            ? c.getId().substring(0, 12)
                            : c.getNames()[0].replaceFirst("^/", ""))
                    + " (" + c.getImage() + ")";
            if (!"true".equals(labels.get(RunSession.LABEL_MANAGED))) {
                others.add(name + ", not EnvBench's");
            } else if (!RunSession.isLeftover(labels)) {
                others.add(name + ", of a running EnvBench run ("
                        + RunSession.judge(labels).why() + ")");
            }
        }
        if (!others.isEmpty()) {
            throw new IOException(
                    "the Docker daemon " + daemonAddress + " is not restarted: a restart would stop " + others.size()
                            + " running container(s): " + String.join("; ", others)
                            + ". Stop them first, or run without changing "
                            + "daemon settings");
        }
    }

    private void systemctlRestart(String unit, long until) throws IOException {
        Process p = new ProcessBuilder("systemctl", "restart", unit)
                .redirectErrorStream(true)
                .start();
        try {
            if (!p.waitFor(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                p.destroyForcibly();
                throw new IOException(
                        "systemctl restart " + unit + " did not return within " + deadline.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restarting " + unit, e);
        }
        if (p.exitValue() != 0) {
            throw new IOException("systemctl restart " + unit + " failed (exit " + p.exitValue() + "): "
                    + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip()
                    + "; see journalctl -u " + unit);
        }
    }

    /** SIGTERM, and wait until it exited (it stops its containers first). */
    private void stop(RunningDockerd d, long until) throws IOException {
        ProcessHandle.of(d.pid()).ifPresent(ProcessHandle::destroy);
        while (d.runs(procRoot)) {
            if (System.nanoTime() > until) {
                throw new IOException("dockerd (PID " + d.pid() + ") did not stop within " + deadline.toSeconds()
                        + " s of SIGTERM; it is left running, not restarted");
            }
            sleep(50);
        }
    }

    private Process start(JsonNode how) throws IOException {
        List<String> argv = new ArrayList<>();
        how.path("argv").forEach(a -> argv.add(a.asText()));
        if (argv.isEmpty()) {
            throw new IOException("cannot start dockerd again: no command line was written down (" + how + ")");
        }
        ProcessBuilder pb = new ProcessBuilder(OwnSession.command(argv)).redirectInput(new File("/dev/null"));
        Map<String, String> env = pb.environment();
        env.clear();
        how.path("env").forEach(e -> {
            String s = e.asText();
            int eq = s.indexOf('=');
            if (eq > 0) {
                env.put(s.substring(0, eq), s.substring(eq + 1));
            }
        });
        Path cwd = Path.of(how.path("cwd").asText("/"));
        pb.directory((Files.isDirectory(cwd) ? cwd : Path.of("/")).toFile());
        String logFile = how.path("log").asText("");
        pb.redirectErrorStream(true)
                .redirectOutput(
                        logFile.isEmpty()
                                ? ProcessBuilder.Redirect.DISCARD
                                : ProcessBuilder.Redirect.appendTo(new File(logFile)));
        // Java closes every descriptor above 2 in the child: it holds no lock or pipe of this JVM
        return pb.start();
    }

    private RunningDockerd awaitAnswer(
            String daemonAddress,
            Path socket,
            Optional<RunningDockerd> before,
            Optional<Process> started,
            JsonNode how,
            long until)
            throws IOException {
        DockerDaemon daemon = DockerDaemon.of(daemonAddress, Optional.empty());
        String lastProblem = "no dockerd listens on " + socket + " yet";
        while (System.nanoTime() < until) {
            if (started.isPresent() && !started.get().isAlive()) {
                throw new IOException("dockerd exited with " + started.get().exitValue() + " right after its start"
                        + tail(how.path("log").asText(""))
                        + "; start it again with ./envbench setup once its configuration is right");
            }
            Optional<RunningDockerd> now = RunningDockerd.listeningOn(procRoot, socket);
            if (now.isPresent()
                    && (before.isEmpty()
                            || now.get().pid() != before.get().pid()
                            || now.get().startTicks() != before.get().startTicks())) {
                // a new client each time: no pooled connection to the old dockerd is used; the owners' connections
                // are told by their owner (the runner drops its pooled ones after a restart)
                try (DockerClient answered = DockerConnection.open(daemon)) {
                    return now.get();
                } catch (TargetStartException e) {
                    lastProblem = e.getMessage();
                }
            }
            sleep(100);
        }
        throw new IOException("the Docker daemon " + daemonAddress + " did not answer within " + deadline.toSeconds()
                + " s of its restart (" + lastProblem + ")"
                + tail(how.path("log").asText("")));
    }

    /** The last lines of dockerd's log, for a message; empty without a log. */
    private static String tail(String logFile) {
        if (logFile.isEmpty()) {
            return "";
        }
        try {
            List<String> lines = Files.readAllLines(Path.of(logFile), StandardCharsets.UTF_8);
            return "; the end of its log " + logFile + ":\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "; see its log " + logFile;
        }
    }

    private boolean isSystemd() {
        try {
            return "systemd".equals(Files.readString(procRoot.resolve("1/comm")).strip());
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while restarting the Docker daemon", e);
        }
    }
}

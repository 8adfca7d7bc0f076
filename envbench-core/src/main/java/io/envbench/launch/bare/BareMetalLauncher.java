package io.envbench.launch.bare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.liveness.DeathWatch;
import io.envbench.base.liveness.ProcessDeathWatch;
import io.envbench.base.readiness.PortListeners;
import io.envbench.base.readiness.ReadinessContext;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.Launcher;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;
import io.envbench.host.reaper.ReaperProcess;
import org.apache.commons.io.file.PathUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts targets as host processes. Each process gets a state file (owner JVM, run, PID, start time) in
 * {@code <tmp>/envbench/bare}, so a later run can stop the processes of a run that was killed.
 */
public final class BareMetalLauncher implements Launcher<BareMetalTarget> {
    private static final Logger log = LoggerFactory.getLogger(BareMetalLauncher.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Path stateDir;

    public BareMetalLauncher() {
        this(Path.of(System.getProperty("java.io.tmpdir"), "envbench", "bare"));
    }

    public BareMetalLauncher(Path stateDir) {
        this.stateDir = stateDir;
    }

    @Override
    public Class<BareMetalTarget> kind() {
        return BareMetalTarget.class;
    }

    @Override
    public RunningTarget start(String environment, BareMetalTarget target) throws TargetStartException {
        reapLeftovers();
        ReaperProcess.ofThisJvm().watchBareMetal(stateDir);
        if (target.hostPort() != 0) {
            LocalPorts.checkFree("port", target.hostPort());
        }
        if (!Files.isDirectory(target.workDir())) {
            throw new InvalidSettingException(
                    "workDir", target.workDir() + " is not a folder; check envbench.targets.dir");
        }
        long t0 = System.nanoTime();
        Path logFile;
        Process process;
        Optional<Path> stateFolder;
        try {
            Files.createDirectories(stateDir);
            logFile = stateDir.resolve(environment + "-" + RunSession.runId() + ".log");
            List<String> cmd = new ArrayList<>(target.command());
            Path exe = target.workDir().resolve(cmd.get(0));
            if (Files.isExecutable(exe)) {
                cmd.set(0, exe.toString());
            }
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .directory(target.workDir().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile());
            pb.environment().putAll(target.env());
            if (target.hostPort() != 0) {
                pb.environment().put("PORT", Integer.toString(target.hostPort()));
            }
            Path ownState = stateDir.resolve(environment + "-" + RunSession.runId());
            // the target's own STATE folder when the recipe names none: EnvBench made it, EnvBench removes it at the
            // stop
            stateFolder = pb.environment().putIfAbsent("STATE", ownState.toString()) == null
                    ? Optional.of(ownState)
                    : Optional.empty();
            process = pb.start();
        } catch (IOException e) {
            throw new TargetStartException(
                    "could not run " + target.command() + " in " + target.workDir() + ": " + e.getMessage(), e);
        }
        BareProcess running = new BareProcess(
                environment,
                process,
                logFile,
                target.endpoint(),
                stateFile(process.pid()),
                stateFolder,
                target.workDir(),
                target.env());
        try {
            writeState(running);
            target.readiness().await(running);
        } catch (TargetStartException | RuntimeException e) {
            running.stop();
            throw e;
        }
        running.readyAfter = Duration.ofNanos(System.nanoTime() - t0);
        // a server's workers (nginx) outlive a master killed with SIGKILL: they are stopped with it
        running.treeAtReady = process.descendants().toList();
        log.info("bare metal {} ready in {} ms: {}", environment, running.readyAfter.toMillis(), running.describe());
        return running;
    }

    /**
     * Watches a host process EnvBench started that is no target (the runner's JMeter): it gets a state file as a
     * target does, so that the reaper, and the next EnvBench start, stop it once its owner is gone. A runner killed
     * with SIGKILL then leaves no load running. The state file goes when the process ends.
     *
     * @param role what the process is, for its labels and the reaper's log (e.g. "jmeter")
     */
    public void watch(String role, Process process) {
        try {
            Files.createDirectories(stateDir);
            Path state = stateFile(process.pid());
            writeState(state, role, process, "EnvBench " + role + "; removed when it ends");
            ReaperProcess.ofThisJvm().watchBareMetal(stateDir);
            process.onExit().thenRun(() -> {
                try {
                    Files.deleteIfExists(state);
                } catch (IOException e) {
                    log.warn("could not remove {}: {}", state, e.toString());
                }
            });
        } catch (IOException | RuntimeException e) { // the process runs on; only a killed owner would leave it
            log.warn("{} (PID {}) is not watched for its owner's death: {}", role, process.pid(), e.toString());
        }
    }

    /** Stops host processes left by EnvBench runs whose JVM is gone; returns how many. */
    public int reapLeftovers() {
        if (!Files.isDirectory(stateDir)) {
            return 0;
        }
        int reaped = 0;
        try (Stream<Path> files = Files.list(stateDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".state")).toList()) {
                Properties p = new Properties();
                try (var in = Files.newInputStream(f)) {
                    p.load(in);
                } catch (IOException e) {
                    continue;
                }
                if (!RunSession.isLeftover(toMap(p))) {
                    continue;
                }
                long pid = Long.parseLong(p.getProperty("pid", "-1"));
                long started = Long.parseLong(p.getProperty("startMillis", "0"));
                Optional<ProcessHandle> h = ProcessHandle.of(pid)
                        .filter(ph -> ph.info()
                                .startInstant()
                                .map(i -> Math.abs(i.toEpochMilli() - started) < 2000)
                                .orElse(false));
                h.ifPresent(ph -> {
                    log.warn("stopping leftover bare-metal process {} of killed run {}", pid, p.getProperty("run"));
                    kill(ph);
                });
                if (h.isPresent()) {
                    reaped++;
                }
                Files.deleteIfExists(f);
                // and what that run's targets left beside it: their logs and STATE folders (ENV-RUN, ENV-RUN.log)
                String run = p.getProperty(RunSession.LABEL_RUN, "");
                if (!run.isEmpty()) {
                    try (Stream<Path> of = Files.list(stateDir)) {
                        of.filter(x -> x.getFileName().toString().endsWith("-" + run)
                                        || x.getFileName().toString().endsWith("-" + run + ".log"))
                                .toList()
                                .forEach(BareMetalLauncher::deleteTree);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reaped;
    }

    private static Map<String, String> toMap(Properties p) {
        Map<String, String> m = new HashMap<>();
        p.forEach((k, v) -> m.put(k.toString(), v.toString()));
        return m;
    }

    /** Lines of a stopped target's output kept for {@link RunningTarget#logs}. */
    static final int KEPT_OUTPUT_LINES = 500;

    private static void deleteTree(Path p) {
        try {
            if (Files.exists(p)) {
                PathUtils.delete(p);
            }
        } catch (IOException e) {
            log.warn("could not remove {}: {}", p, e.toString());
        }
    }

    private Path stateFile(long pid) {
        return stateDir.resolve(pid + ".state");
    }

    private void writeState(BareProcess bp) {
        try {
            writeState(bp.stateFile, bp.environment, bp.process, "EnvBench bare-metal target; removed when it stops");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The state file {@link #reapLeftovers} reads: the owner's labels, the PID and its start time. */
    private static void writeState(Path file, String name, Process process, String comment) throws IOException {
        Properties p = new Properties();
        RunSession.labels(name).forEach(p::setProperty);
        p.setProperty("pid", Long.toString(process.pid()));
        p.setProperty(
                "startMillis",
                Long.toString(
                        process.info().startInstant().orElse(Instant.now()).toEpochMilli()));
        try (var out = Files.newOutputStream(file)) {
            p.store(out, comment);
        }
    }

    /** SIGTERM to the process and its descendants, SIGKILL after a grace period. */
    static void kill(ProcessHandle root) {
        kill(root, List.of());
    }

    /**
     * Also stops {@code formerDescendants} still alive: children orphaned when the root died. A handle
     * remembers its process's start time, so a reused PID is never signalled.
     */
    static void kill(ProcessHandle root, List<ProcessHandle> formerDescendants) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        formerDescendants.stream()
                .filter(ProcessHandle::isAlive)
                .filter(h -> !all.contains(h))
                .forEach(all::add);
        all.forEach(ProcessHandle::destroy);
        // polled here: onExit() of a process that is not our child backs off to a second or more between looks
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        while (all.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static final class BareProcess implements RunningTarget, ReadinessContext {
        private final String environment;
        private final Process process;
        private final Path logFile;
        private final Optional<Endpoint> endpoint;
        private final Path stateFile;
        private final Optional<Path> stateFolder;
        private final Path workDir;
        /** The output's last lines, kept when the stop removes the log file. */
        private volatile List<String> lastOutput;

        private final Map<String, String> env;
        private volatile Duration readyAfter = Duration.ZERO;
        private volatile boolean stopped;
        private volatile List<ProcessHandle> treeAtReady = List.of();
        private final List<DeathWatch> deathWatches = new CopyOnWriteArrayList<>();

        BareProcess(
                String environment,
                Process process,
                Path logFile,
                Optional<Endpoint> endpoint,
                Path stateFile,
                Optional<Path> stateFolder,
                Path workDir,
                Map<String, String> env) {
            this.environment = environment;
            this.process = process;
            this.logFile = logFile;
            this.endpoint = endpoint;
            this.stateFile = stateFile;
            this.stateFolder = stateFolder;
            this.workDir = workDir;
            this.env = env;
        }

        @Override
        public String environment() {
            return environment;
        }

        @Override
        public Optional<Endpoint> endpoint() {
            return endpoint;
        }

        /** The target is this process and its children: another listener on the port is a stranger's. */
        @Override
        public Optional<String> strangerOnPort() {
            if (endpoint.isEmpty()) {
                return Optional.empty();
            }
            List<Long> tree = new ArrayList<>();
            tree.add(process.pid());
            process.descendants().forEach(p -> tree.add(p.pid()));
            return PortListeners.read(Path.of("/proc"), endpoint.get().port()).strangerAmong(tree);
        }

        @Override
        public OptionalInt exitCode() {
            return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
        }

        @Override
        public Optional<String> whyGone() {
            return process.isAlive()
                    ? Optional.empty()
                    : Optional.of("process exited with code " + process.exitValue());
        }

        /** A readiness command runs on the host, in the target's folder, with its environment. */
        @Override
        public int exec(List<String> command) throws IOException, InterruptedException {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " took over 10 s");
            }
            return p.exitValue();
        }

        @Override
        public Duration startToReady() {
            return readyAfter;
        }

        @Override
        public long pid() {
            return process.pid();
        }

        @Override
        public Optional<String> containerId() {
            return Optional.empty();
        }

        @Override
        public String describe() {
            return "host process pid " + process.pid()
                    + endpoint.map(e -> " listening on " + e).orElse(" (no port)");
        }

        @Override
        public String logs(int lines) {
            List<String> all = lastOutput;
            if (all == null) {
                try {
                    all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    return "";
                }
            }
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }

        @Override
        public DeathWatch watchForDeath(Consumer<String> onDeath) {
            DeathWatch w = ProcessDeathWatch.start(process, reason -> {
                if (!stopped) {
                    onDeath.accept(reason);
                }
            });
            deathWatches.add(w);
            if (stopped) {
                w.close();
            }
            return w;
        }

        @Override
        public synchronized void stop() {
            if (stopped) {
                return;
            }
            stopped = true;
            deathWatches.forEach(DeathWatch::close);
            kill(process.toHandle(), treeAtReady);
            // nothing stays behind: the state file, the log (its last lines kept for logs()), the target's STATE folder
            try {
                List<String> all =
                        Files.exists(logFile) ? Files.readAllLines(logFile, StandardCharsets.UTF_8) : List.of();
                lastOutput = List.copyOf(all.subList(Math.max(0, all.size() - KEPT_OUTPUT_LINES), all.size()));
            } catch (IOException | UncheckedIOException e) {
                lastOutput = List.of();
            }
            for (Path p : stateFolder.map(f -> List.of(stateFile, logFile, f)).orElse(List.of(stateFile, logFile))) {
                deleteTree(p);
            }
        }
    }
}

package io.envbench.launch.docker;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.Ulimit;
import com.github.dockerjava.api.model.Volume;
import io.envbench.base.container.ContainerEngine;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.container.NetworkMode;
import io.envbench.base.container.VolumeMount;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.liveness.DeathWatch;
import io.envbench.base.readiness.ReadinessContext;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.Launcher;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;
import io.envbench.host.reaper.ReaperProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts targets as containers through docker-java, on Docker or on Podman's Docker-compatible API ({@link
 * PodmanEngine}: what differs is there); every resource carries {@link RunSession#labels}. A port is
 * published on {@link DockerDaemon#publishAddress()}: 127.0.0.1 for the local socket, the daemon host's address for a
 * {@code tcp://} daemon; the target's {@link Endpoint} is that address.
 */
public final class DockerLauncher implements Launcher<ContainerTarget> {
    private static final Logger log = LoggerFactory.getLogger(DockerLauncher.class);
    /** CPU quota period, as {@code docker run --cpus} uses. */
    public static final long CPU_PERIOD_US = 100_000;
    /** How long a stopped container may take to exit before it is killed (the stop's deadline is this plus {@link DockerDeadlines#CALL}). */
    static final int STOP_GRACE_SECONDS = 5;

    private final DockerConnection connection;
    private final DockerDaemon daemon;
    private final ContainerEngine engine;
    /** The daemon's root folder (docker info), asked once. */
    private volatile String dockerRoot;

    /** @param connection the owner's connection to the Docker daemon the containers run on */
    public DockerLauncher(DockerConnection connection) {
        this(connection, ContainerEngine.DOCKER);
    }

    /**
     * @param connection the owner's connection to the engine's Docker API ({@link PodmanEngine#daemon()} for Podman)
     * @param engine     which engine answers there: it starts the targets placed on it
     */
    public DockerLauncher(DockerConnection connection, ContainerEngine engine) {
        this.connection = connection;
        this.daemon = connection.daemon();
        this.engine = engine;
    }

    public DockerClient client() throws TargetStartException {
        return connection.client();
    }

    @Override
    public Class<ContainerTarget> kind() {
        return ContainerTarget.class;
    }

    @Override
    public RunningTarget start(String environment, ContainerTarget target) throws TargetStartException {
        if (target.engine() != engine) {
            throw new IllegalArgumentException(
                    "a " + engine.displayName() + " launcher cannot start a container placed on " + target.engine());
        }
        DockerDaemonLink link = connection.link();
        // this process's reaper sweeps the daemon should this process die with the container running: told once the
        // daemon answered, before anything is made (a reader, such as a metrics probe or a JMeter engine, creates
        // nothing and starts no reaper)
        ReaperProcess.ofThisJvm().watchDockerDaemon(daemon.address(), daemon.tlsCertFolder());
        DockerClient docker = link.client();
        try {
            docker.inspectImageCmd(target.image()).exec();
        } catch (NotFoundException e) {
            throw new InvalidSettingException(
                    "image",
                    engine == ContainerEngine.PODMAN
                            ? "'" + target.image() + "' is not in Podman's image store; images are built here, never"
                                    + " pulled: run ./envbench setup --podman "
                                    + TargetRecipe.buildFolderOf(target.image())
                                    + " (it copies the image from Docker: podman pull docker-daemon:" + target.image()
                                    + "), or give an image listed by 'podman images'"
                            : daemon.isLocalSocket()
                                    ? "'" + target.image()
                                            + "' is not a local image; images are built here, never pulled: run ./envbench setup "
                                            + TargetRecipe.buildFolderOf(target.image())
                                            + " (a launch sets up only the targets of its"
                                            + " experiment file), or give an image listed by 'docker images'"
                                    : "'" + target.image() + "' is not an image of the daemon at " + daemon.address()
                                            + "; images are never pulled: "
                                            + "build or load it there (docker save here, docker load there), or give an image it lists");
        } catch (DockerUnavailableException e) {
            throw new TargetStartException(e.getMessage(), e);
        }
        if (daemon.onThisHost()) { // a remote daemon's host says itself when the port is taken there
            LocalPorts.checkFree("port", target.hostPort());
        }
        // where the port is published is where load goes: 127.0.0.1 here, the daemon host's address for a remote daemon
        String publishAddress = daemon.publishAddress();
        Endpoint endpoint = target.hostPort() == 0 ? null : new Endpoint(publishAddress, target.hostPort());
        ContainerOptions o = target.options();
        Map<String, String> labels = RunSession.labels(environment);
        long t0 = System.nanoTime();
        String createdVolume = null;
        String id = null;
        try {
            // on a user-defined network (a multi-service target's) instead of the default bridge: ports publish the
            // same way
            HostConfig hc = HostConfig.newHostConfig()
                    .withNetworkMode(target.network()
                            .map(ContainerTarget.NetworkAttachment::network)
                            .orElse(o.networkMode().dockerName()));
            ExposedPort exposed = target.containerPort() == 0 ? null : ExposedPort.tcp(target.containerPort());
            if (o.networkMode() == NetworkMode.BRIDGE && exposed != null && target.hostPort() != 0) {
                hc.withPortBindings(
                        new PortBinding(Ports.Binding.bindIpAndPort(publishAddress, target.hostPort()), exposed));
            }
            o.cpuset().ifPresent(c -> hc.withCpusetCpus(c.toString()));
            if (o.cpus().isPresent()) {
                hc.withCpuPeriod(CPU_PERIOD_US).withCpuQuota(Math.round(o.cpus().getAsDouble() * CPU_PERIOD_US));
            }
            o.cpuShares().ifPresent(hc::withCpuShares);
            o.memoryBytes().ifPresent(m -> hc.withMemory(m).withMemorySwap(m)); // no swap: a limit means a limit
            if (!o.seccomp().securityOpts().isEmpty()) { // none: the engine applies its own profile
                hc.withSecurityOpts(o.seccomp().securityOpts());
            }
            if (engine == ContainerEngine.PODMAN && daemon.isLocalSocket()) {
                List<Ulimit> limits = PodmanEngine.containerLimits(Path.of("/proc"), PodmanEngine.SOCKET_PATH);
                if (!limits.isEmpty()) {
                    hc.withUlimits(limits);
                }
            }
            VolumeMount v = o.volume();
            switch (v.kind()) {
                // a Mount, not a Bind: for a missing source a Bind makes the folder (as root, empty), a Mount is
                // refused
                case BIND ->
                    hc.withMounts(List.of(new Mount()
                            .withType(MountType.BIND)
                            .withSource(v.source())
                            .withTarget(v.containerPath())));
                case NAMED -> {
                    if (!volumeExists(docker, v.source())) {
                        docker.createVolumeCmd()
                                .withName(v.source())
                                .withLabels(labels)
                                .exec();
                        createdVolume = v.source();
                    }
                    hc.withBinds(new Bind(v.source(), new Volume(v.containerPath())));
                }
                case TMPFS -> hc.withTmpFs(Map.of(v.containerPath(), ""));
                case NONE -> {}
            }
            BlockIoAccounting.apply(hc, localFolders(docker, v));
            List<String> env = new ArrayList<>();
            o.env().forEach((k, val) -> env.add(k + "=" + val));
            CreateContainerCmd create = docker.createContainerCmd(target.image())
                    .withName("envbench-" + environment.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + RunSession.runId())
                    .withLabels(labels)
                    .withEnv(env)
                    .withHostConfig(hc);
            if (exposed != null) {
                create.withExposedPorts(exposed);
            }
            if (!o.command().isEmpty()) {
                create.withCmd(o.command());
            }
            target.network().ifPresent(n -> create.withAliases(n.alias()));
            id = create.exec().getId();
            docker.startContainerCmd(id).exec();
            RunningContainer running =
                    new RunningContainer(link, environment, id, target, Optional.ofNullable(endpoint), createdVolume);
            target.readiness().await(running);
            running.readyAfter = Duration.ofNanos(System.nanoTime() - t0);
            running.inspect = docker.inspectContainerCmd(id).exec();
            log.info("container {} ready in {} ms: {}", environment, running.readyAfter.toMillis(), running.describe());
            return running;
        } catch (TargetStartException | RuntimeException e) {
            // a start cancelled by an interrupt still removes what it made: clean up uninterrupted
            boolean interrupted = Thread.interrupted();
            String logs;
            try {
                logs = id == null || !link.answering() ? "" : logsOf(docker, id, 20);
                removeQuietly(link, id, createdVolume);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            if (e instanceof InvalidSettingException ise) {
                throw ise;
            }
            if (e instanceof TargetStartException tse) {
                throw tse;
            }
            if (e instanceof DockerUnavailableException due) {
                throw new TargetStartException(due.getMessage(), e);
            }
            if (o.volume().kind() == VolumeMount.Kind.BIND
                    && String.valueOf(DockerConnection.rootCause(e)).contains("does not exist")) {
                throw new InvalidSettingException(
                        "volumeSource",
                        "'" + o.volume().source() + "' does not exist on the Docker host; "
                                + "create the folder first, or give an existing one (EnvBench never lets Docker create it)");
            }
            throw new TargetStartException(
                    "docker refused the container: " + DockerConnection.rootCause(e)
                            + (logs.isBlank() ? "" : "; last output:\n" + logs),
                    e);
        }
    }

    /** The host folders a container writes to, when the daemon is local: its root (layer, named volumes) and a bind source. */
    private List<Path> localFolders(DockerClient docker, VolumeMount v) {
        if (!daemon.isLocalSocket()) { // a remote daemon's root is not a folder here
            return List.of();
        }
        String root = dockerRoot;
        if (root == null) {
            root = docker.infoCmd().exec().getDockerRootDir();
            dockerRoot = root;
        }
        List<Path> folders = new ArrayList<>();
        if (root != null) {
            folders.add(Path.of(root));
        }
        if (v.kind() == VolumeMount.Kind.BIND) {
            folders.add(Path.of(v.source()));
        }
        return folders;
    }

    private static boolean volumeExists(DockerClient docker, String name) {
        try {
            docker.inspectVolumeCmd(name).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** How long a SIGKILLed container with a memory limit may take to be marked OOM-killed by Docker. */
    private static final Duration OOM_FLAG_WAIT = Duration.ofSeconds(1);

    private static Optional<String> exitReason(DockerClient docker, String id) {
        InspectContainerResponse c = docker.inspectContainerCmd(id).exec();
        if (Boolean.TRUE.equals(c.getState().getRunning())) {
            return Optional.empty();
        }
        // Docker learns of an OOM kill from an event that may come after the exit: a SIGKILL (137) under a memory
        // limit is asked again briefly, so an OOM kill during the start reads as it does later in the run
        long until = System.nanoTime() + OOM_FLAG_WAIT.toNanos();
        while (!Boolean.TRUE.equals(c.getState().getOOMKilled())
                && Long.valueOf(137).equals(c.getState().getExitCodeLong())
                && c.getHostConfig() != null
                && c.getHostConfig().getMemory() != null
                && c.getHostConfig().getMemory() > 0
                && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            c = docker.inspectContainerCmd(id).exec();
        }
        InspectContainerResponse.ContainerState s = c.getState();
        if (Boolean.TRUE.equals(s.getOOMKilled())) {
            return Optional.of(ContainerDeathWatch.outOfMemory(c) + "; raise memory");
        }
        return Optional.of("container " + s.getStatus() + ", exit code " + s.getExitCodeLong());
    }

    static String logsOf(DockerClient docker, String id, int lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            docker.logContainerCmd(id)
                    .withStdOut(true)
                    .withStdErr(true)
                    .withTail(lines)
                    .exec(new ResultCallback.Adapter<Frame>() {
                        @Override
                        public void onNext(Frame f) {
                            out.writeBytes(f.getPayload());
                        }
                    })
                    .awaitCompletion(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            return "";
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Removes a container and the volume made for it; when the daemon is lost, as soon as it answers again. */
    static void removeQuietly(DockerDaemonLink link, String id, String volume) {
        DockerClient docker = link.client();
        if (id != null && !link.answering()) {
            link.removeWhenBack(id, volume);
            return;
        }
        if (id != null) {
            try {
                docker.removeContainerCmd(id)
                        .withForce(true)
                        .withRemoveVolumes(true)
                        .exec();
            } catch (NotFoundException e) {
                // already gone
            } catch (DockerUnavailableException e) {
                link.removeWhenBack(id, volume);
                return;
            } catch (RuntimeException e) {
                log.warn("could not remove container {}: {}", id, e.toString());
            }
        }
        if (volume != null) {
            try {
                docker.removeVolumeCmd(volume).exec();
            } catch (RuntimeException e) {
                log.warn("could not remove volume {}: {}", volume, e.toString());
            }
        }
    }

    private static final class RunningContainer implements RunningTarget, ReadinessContext {
        private final DockerDaemonLink link;
        private final DockerClient docker;
        private final String environment;
        private final String id;
        private final ContainerTarget target;
        private final Optional<Endpoint> endpoint;
        private final String createdVolume;
        private volatile Duration readyAfter = Duration.ZERO;
        private volatile InspectContainerResponse inspect;
        private volatile boolean stopped;
        private final List<DeathWatch> deathWatches = new CopyOnWriteArrayList<>();
        /** Set when a watch heard it die and the container is still there: its last output is kept before it is removed. */
        private volatile boolean diedWithOutput;

        private volatile String outputAtDeath;

        RunningContainer(
                DockerDaemonLink link,
                String environment,
                String id,
                ContainerTarget target,
                Optional<Endpoint> endpoint,
                String createdVolume) {
            this.link = link;
            this.docker = link.client();
            this.environment = environment;
            this.id = id;
            this.target = target;
            this.endpoint = endpoint;
            this.createdVolume = createdVolume;
        }

        @Override
        public String environment() {
            return environment;
        }

        @Override
        public Optional<Endpoint> endpoint() {
            return endpoint;
        }

        @Override
        public OptionalInt exitCode() {
            InspectContainerResponse.ContainerState s =
                    docker.inspectContainerCmd(id).exec().getState();
            if (Boolean.TRUE.equals(s.getRunning()) || s.getExitCodeLong() == null) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(s.getExitCodeLong().intValue());
        }

        @Override
        public Optional<String> whyGone() {
            return exitReason(docker, id);
        }

        /** {@code docker exec} in the container; its exit code. */
        @Override
        public int exec(List<String> command) throws IOException, InterruptedException {
            String exec = docker.execCreateCmd(id)
                    .withCmd(command.toArray(new String[0]))
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .exec()
                    .getId();
            try (ResultCallback.Adapter<Frame> done =
                    docker.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>())) {
                if (!done.awaitCompletion(10, TimeUnit.SECONDS)) {
                    throw new IOException(String.join(" ", command) + " took over 10 s");
                }
            }
            Long code = docker.inspectExecCmd(exec).exec().getExitCodeLong();
            return code == null ? -1 : code.intValue();
        }

        @Override
        public Duration startToReady() {
            return readyAfter;
        }

        @Override
        public Optional<String> containerId() {
            return Optional.of(id);
        }

        @Override
        public long pid() {
            Long pid = inspect == null ? null : inspect.getState().getPidLong();
            return pid == null ? -1 : pid;
        }

        /** Published ports as Docker reports them, e.g. {@code 127.0.0.1:18080->8080/tcp}; empty with host networking. */
        String publishedPorts() {
            if (inspect == null
                    || inspect.getNetworkSettings() == null
                    || inspect.getNetworkSettings().getPorts() == null) {
                return "";
            }
            Map<String, String> out = new HashMap<>();
            inspect.getNetworkSettings().getPorts().getBindings().forEach((port, bindings) -> {
                if (bindings != null) {
                    for (Ports.Binding b : bindings) {
                        out.put(b.getHostIp() + ":" + b.getHostPortSpec(), port.toString());
                    }
                }
            });
            return out.entrySet().stream()
                    .map(e -> e.getKey() + "->" + e.getValue())
                    .sorted()
                    .reduce((a, b) -> a + "," + b)
                    .orElse("");
        }

        @Override
        public String describe() {
            String ports = publishedPorts();
            return "container " + id.substring(0, 12) + " (" + target.image() + ") " + target.options()
                    + " published=" + (ports.isEmpty() ? "none" : ports) + " pid " + pid()
                    + endpoint().map(e -> ", load to " + e).orElse(" (no port)");
        }

        @Override
        public String logs(int lines) {
            String kept = outputAtDeath;
            if (kept != null) {
                String[] all = kept.split("\n", -1);
                return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
            }
            return logsOf(docker, id, lines);
        }

        @Override
        public DeathWatch watchForDeath(Consumer<String> onDeath) {
            DeathWatch w = ContainerDeathWatch.start(link, id, reason -> {
                if (!stopped) {
                    diedWithOutput = !ContainerDeathWatch.REMOVED_FROM_OUTSIDE.equals(reason)
                            && !ContainerDeathWatch.isDaemonLoss(reason);
                    onDeath.accept(reason);
                }
            });
            deathWatches.add(w);
            if (stopped) { // stopped while the watch started
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
            if (!link.answering()) { // nothing to ask a lost daemon: the container goes when it answers again
                removeQuietly(link, id, createdVolume);
                return;
            }
            if (diedWithOutput) { // what it printed last says why it died; removing the container loses it
                outputAtDeath = logsOf(docker, id, 500).stripTrailing();
            }
            try {
                docker.stopContainerCmd(id).withTimeout(STOP_GRACE_SECONDS).exec();
            } catch (RuntimeException e) {
                log.debug("stop {}: {}", id, e.toString());
            }
            removeQuietly(link, id, createdVolume);
        }
    }
}

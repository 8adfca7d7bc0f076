package io.envbench.control.registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.envbench.base.container.ContainerEngine;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.Launcher;
import io.envbench.base.recipe.ServicesTarget;
import io.envbench.base.recipe.TargetSpec;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerLauncher;
import io.envbench.launch.docker.DockerReaper;
import io.envbench.launch.docker.PodmanEngine;
import io.envbench.launch.docker.PortHolders;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.launch.services.ServicesLauncher;
import net.jcip.annotations.GuardedBy;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The environments one owner (a JMeter engine, the runner, a test) has started: any number at once, by
 * name. A name and a port are reserved atomically before anything starts, so two starts of one name or
 * port cannot both go ahead: one wins, the other fails at once with a message and leaves nothing.
 * Listeners hear of every start and stop. A running environment is watched for a death EnvBench did not
 * cause (see {@link RunningTarget#watchForDeath}): it is then marked down with the reason
 * ({@link #whyDown}), what is left of it is removed, and listeners hear {@link Listener#died}; a stop made
 * here is never a death. Thread-safe: every state change happens under this object's lock, and no start
 * or stop (which take seconds) runs under it.
 */
@ThreadSafe
public final class EnvironmentRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EnvironmentRegistry.class);

    /** What happens to environments; called on the thread that starts or stops. */
    public interface Listener {
        default void started(RunningTarget target) {}

        default void startFailed(EnvironmentDefinition definition, Exception why) {}

        default void stopped(String environment) {}

        /**
         * The environment died without EnvBench stopping it (OOM killer, crash, removed from outside); called
         * once, after what was left of it is removed, on a thread of the watch. {@link #stopped} is not called.
         *
         * @param reason what a user reads, e.g. {@code killed: out of memory, limit 6m}
         */
        default void died(String environment, String reason) {}
    }

    private final Path targetsDir;
    private final DockerDaemon dockerDaemon;
    /** This owner's connection to the daemon: its losses and owed removals are no other owner's. */
    private final DockerConnection docker;
    /** This owner's connection to Podman's Docker-compatible API: made at the first Podman start. */
    private final DockerConnection podman = new DockerConnection(PodmanEngine.daemon());
    /** name -> running target. */
    @GuardedBy("this")
    private final Map<String, RunningTarget> running = new LinkedHashMap<>();
    /** name -> what it was started from (the latest start of that name). */
    @GuardedBy("this")
    private final Map<String, EnvironmentDefinition> definitions = new LinkedHashMap<>();
    /** name -> a start in progress: its port (0 for none) and the thread doing it (interrupted on close). */
    @GuardedBy("this")
    private final Map<String, Starting> starting = new LinkedHashMap<>();
    /** name -> the port of an environment being stopped: neither is free until the stop has finished. */
    @GuardedBy("this")
    private final Map<String, Integer> stopping = new LinkedHashMap<>();

    /** name -> why it died, until the name starts again. */
    @GuardedBy("this")
    private final Map<String, String> down = new LinkedHashMap<>();

    private record Starting(int port, Thread thread) {}

    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Whether a start has tried to connect to Docker (once: later starts do not wait for a daemon that is down). */
    @GuardedBy("this")
    private boolean connectTried;

    @GuardedBy("this")
    private boolean closed;

    /**
     * @param targetsDir folder of target recipes
     * @param dockerDaemon the Docker daemon containers run on
     */
    public EnvironmentRegistry(Path targetsDir, DockerDaemon dockerDaemon) {
        this.targetsDir = targetsDir;
        this.dockerDaemon = Objects.requireNonNull(dockerDaemon, "dockerDaemon");
        this.docker = new DockerConnection(dockerDaemon);
    }

    public Path targetsDir() {
        return targetsDir;
    }

    public DockerDaemon dockerDaemon() {
        return dockerDaemon;
    }

    /** The connection to {@link #dockerDaemon()} that everything this registry starts and reads uses. */
    public DockerConnection docker() {
        return docker;
    }

    public void addListener(Listener l) {
        listeners.add(l);
    }

    public void removeListener(Listener l) {
        listeners.remove(l);
    }

    /** Every environment running now, by name, in start order (a copy). */
    public synchronized Map<String, RunningTarget> runningTargets() {
        return new LinkedHashMap<>(running);
    }

    public synchronized Optional<RunningTarget> running(String name) {
        return Optional.ofNullable(running.get(name));
    }

    /** What the environment of this name running now was started from; empty when none runs. */
    public synchronized Optional<EnvironmentDefinition> definition(String name) {
        return running.containsKey(name) ? Optional.ofNullable(definitions.get(name)) : Optional.empty();
    }

    public synchronized boolean isRunning(String name) {
        return running.containsKey(name);
    }

    /** Why the environment of this name died, when it died since it last started; empty otherwise. */
    public synchronized Optional<String> whyDown(String name) {
        return Optional.ofNullable(down.get(name));
    }

    /** The connection to Podman's Docker-compatible API that its containers' starts and readings use. */
    public DockerConnection podman() {
        return podman;
    }

    /** The connection to the engine a container runs on. */
    public DockerConnection connection(ContainerEngine engine) {
        return engine == ContainerEngine.PODMAN ? podman : docker;
    }

    /** The launcher of each kind of target: a new kind of target adds its launcher here. */
    private List<Launcher<?>> launchers() {
        return List.of(new BareMetalLauncher(), new DockerLauncher(docker), new ServicesLauncher(docker));
    }

    private RunningTarget launch(String environment, TargetSpec spec) throws TargetStartException {
        if (spec instanceof ContainerTarget c && c.engine() != ContainerEngine.DOCKER) {
            return new DockerLauncher(connection(c.engine()), c.engine()).start(environment, c);
        }
        for (Launcher<?> l : launchers()) {
            if (l.kind().isInstance(spec)) {
                return startWith(l, environment, spec);
            }
        }
        throw new IllegalStateException(
                "no launcher starts a " + spec.getClass().getSimpleName());
    }

    private static <S extends TargetSpec> RunningTarget startWith(
            Launcher<S> launcher, String environment, TargetSpec spec) throws TargetStartException {
        return launcher.start(environment, launcher.kind().cast(spec));
    }

    /**
     * Starts an environment alongside those running.
     *
     * @throws InvalidSettingException when a field is wrong, the name is taken or its port is used by another environment
     * @throws TargetStartException    when the target did not start or get ready; nothing it made is left
     */
    public RunningTarget start(EnvironmentDefinition def) throws TargetStartException {
        TargetSpec spec = def.resolve(targetsDir);
        reserve(def, spec);
        RunningTarget t;
        try {
            if (spec instanceof ContainerTarget c && c.engine() == ContainerEngine.PODMAN) {
                try { // Podman missing or its service down: said in the words of the field that asked for it
                    podman.client();
                } catch (TargetStartException e) {
                    throw new InvalidSettingException("placement", PodmanEngine.notAnswering(e));
                }
            } else if (spec instanceof ContainerTarget
                    || spec instanceof ServicesTarget s
                            && s.services().stream().anyMatch(x -> x.spec() instanceof ContainerTarget)) {
                // a daemon that is gone or frozen fails the start here, within the ping's deadline, before any other
                // call
                docker.client();
            }
            reapLeftovers();
            try {
                t = launch(def.name(), spec);
            } catch (InvalidSettingException e) {
                throw portHeld(e, spec.hostPort());
            }
        } catch (TargetStartException | RuntimeException e) {
            synchronized (this) {
                starting.remove(def.name());
            }
            listeners.forEach(l -> l.startFailed(def, e));
            throw e;
        }
        boolean keep;
        synchronized (this) {
            starting.remove(def.name());
            keep = !closed;
            if (keep) {
                running.put(def.name(), t);
                definitions.put(def.name(), def);
            }
        }
        if (!keep) { // closed while it started (Ctrl-C): it must not outlive its owner
            t.stop();
            throw new TargetStartException("environment '" + def.name() + "' was stopped: its owner is shutting down");
        }
        t.watchForDeath(reason -> died(def.name(), t, reason));
        listeners.forEach(l -> l.started(t));
        return t;
    }

    /**
     * A busy port named with what holds it, when EnvBench can tell: a container of a run lost with its daemon (removed as
     * soon as the daemon answers again), or an EnvBench container of another run or owner (with its owner and the
     * command that frees it). Asks a daemon already connected only: a busy port never waits for a daemon that is down.
     */
    private InvalidSettingException portHeld(InvalidSettingException e, int port) {
        if (!e.field().equals("port")) {
            return e;
        }
        String what = e.getMessage().substring("port: ".length());
        Set<String> owed = docker.owedRemovals();
        if (!owed.isEmpty()) {
            String ids = owed.stream()
                    .map(id -> id.substring(0, Math.min(12, id.length())))
                    .sorted()
                    .collect(Collectors.joining(", "));
            return new InvalidSettingException(
                    "port",
                    what + "; it may be held by container " + ids + " of a run lost with the Docker daemon at "
                            + dockerDaemon.address()
                            + ", removed as soon as that daemon answers again (check it with 'docker info'; './envbench setup' starts it)");
        }
        var client = docker.connected();
        if (port == 0 || client.isEmpty()) {
            return e;
        }
        try {
            return PortHolders.describe(client.get(), port)
                    .map(holders -> new InvalidSettingException("port", port + " is held by " + holders))
                    .orElse(e);
        } catch (RuntimeException lookup) { // the message as it was: the lookup only adds to it
            log.debug("could not look for the port's holder: {}", lookup.toString());
            return e;
        }
    }

    private synchronized void reserve(EnvironmentDefinition def, TargetSpec spec) {
        if (closed) {
            throw new InvalidSettingException(
                    "environment", "'" + def.name() + "' cannot start: EnvBench is shutting down");
        }
        String state = running.containsKey(def.name())
                ? "running"
                : starting.containsKey(def.name()) ? "starting" : stopping.containsKey(def.name()) ? "stopping" : null;
        if (state != null) {
            throw new InvalidSettingException(
                    "environment",
                    "'" + def.name() + "' is already " + state
                            + "; stop it first, use action switch, or give this one another name");
        }
        int port = spec.hostPort();
        if (port != 0) {
            List<String> users = new ArrayList<>();
            running.forEach((n, t) -> t.endpoint().filter(e -> e.port() == port).ifPresent(e -> users.add(n)));
            starting.forEach((n, st) -> {
                if (st.port() == port) {
                    users.add(n);
                }
            });
            stopping.forEach((n, p) -> {
                if (p == port) {
                    users.add(n);
                }
            });
            if (!users.isEmpty()) {
                throw new InvalidSettingException(
                        "port",
                        port + " is used by environment '" + users.get(0)
                                + "'; give each environment that runs at the same time its own port");
            }
        }
        starting.put(def.name(), new Starting(port, Thread.currentThread()));
        down.remove(def.name());
    }

    /**
     * Before every start: stop what killed runs left (host processes, labelled Docker containers whose
     * owner is provably gone; host settings they changed put back), so a leftover does not hold the port, also in a long-lived JVM (the
     * controller, the JMeter GUI). The first start connects to Docker when it answers (the first
     * connection sweeps containers, networks and volumes); later starts ask a daemon already connected
     * with one labelled list call, and never wait for a daemon that is down. A bare-metal run needs no Docker.
     */
    private void reapLeftovers() {
        boolean first;
        synchronized (this) {
            first = !connectTried;
            connectTried = true;
        }
        new BareMetalLauncher().reapLeftovers();
        // host settings (cpusets, IRQ affinities, RPS masks, irqbalance) a killed run changed and its reaper did not
        // put back
        HostSettingsJournal.sweepLeftovers(HostSettingsJournal.defaultFolder(), DaemonRestart.onThisHost());
        if (docker.owesRemovals()) {
            try { // containers of a run whose daemon was lost may hold the port: removed now if the daemon is back
                docker.client();
            } catch (TargetStartException | InvalidSettingException e) {
                log.debug("Docker still away: {}", e.getMessage());
            }
        }
        var client = docker.connected();
        if (client.isEmpty()) {
            if (first) {
                try {
                    docker.client(); // sweeps on first connection
                } catch (TargetStartException
                        | InvalidSettingException e) { // a Docker start says it; a bare one needs no Docker
                    log.debug("no Docker to reap: {}", e.getMessage());
                }
            }
            return;
        }
        // Podman's leftovers: swept at its first answer (a Podman start connects first), then before each start
        podman.connected().ifPresent(p -> {
            try {
                new DockerReaper(p).sweepContainers();
            } catch (RuntimeException e) {
                log.warn("could not look for leftover Podman containers: {}", e.toString());
            }
        });
        try {
            DockerReaper.Sweep sweep = new DockerReaper(client.get()).sweepContainers();
            log.debug("leftover sweep before a start: {} removed, {} µs", sweep.removed(), sweep.elapsedNanos() / 1000);
        } catch (RuntimeException e) {
            log.warn(
                    "could not look for leftover containers: {}",
                    e.toString()); // the start itself will say what is wrong
        }
    }

    /** Stops every running environment, then starts this one. */
    public RunningTarget switchTo(EnvironmentDefinition def) throws TargetStartException {
        stopAll();
        return start(def);
    }

    /** @return whether it was running */
    public boolean stop(String name) {
        RunningTarget t;
        synchronized (this) {
            t = running.remove(name);
            if (t != null) {
                stopping.put(name, t.endpoint().map(Endpoint::port).orElse(0));
            }
        }
        if (t == null) {
            return false;
        }
        try {
            t.stop();
        } finally {
            synchronized (this) {
                stopping.remove(name);
            }
        }
        log.info("stopped environment {}", name);
        listeners.forEach(l -> l.stopped(name));
        return true;
    }

    /**
     * A watch heard the target die. Only the target still registered under its name counts: one that
     * {@link #stop} took out first is being stopped by EnvBench, and that is no death.
     */
    private void died(String name, RunningTarget t, String reason) {
        synchronized (this) {
            if (running.get(name) != t) {
                return;
            }
            running.remove(name);
            stopping.put(name, t.endpoint().map(Endpoint::port).orElse(0));
            down.put(name, reason);
        }
        log.warn("environment {} died: {}", name, reason);
        try {
            t.stop(); // removes what is left (an exited container, orphaned workers, the state file)
        } catch (RuntimeException e) {
            log.warn("cleaning up after {} died: {}", name, e.toString());
        } finally {
            synchronized (this) {
                stopping.remove(name);
            }
        }
        listeners.forEach(l -> l.died(name, reason));
    }

    /**
     * Interrupts every start in progress: its readiness wait ends, and the launcher removes what it made.
     * For Ctrl-C, when waiting up to a ready timeout is too long.
     */
    public void cancelStarts() {
        List<Thread> threads;
        synchronized (this) {
            threads = starting.values().stream().map(Starting::thread).toList();
        }
        threads.forEach(Thread::interrupt);
    }

    public void stopAll() {
        List<String> names;
        synchronized (this) {
            names = new ArrayList<>(running.keySet());
        }
        names.forEach(this::stop);
    }

    /**
     * Stops everything and refuses new starts; a start in progress is interrupted (its launcher removes
     * what it made), and one that gets up all the same is stopped at once.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        cancelStarts();
        stopAll();
        docker.close();
        podman.close();
    }
}

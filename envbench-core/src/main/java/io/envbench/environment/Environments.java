package io.envbench.environment;

import io.envbench.bare.BareMetalLauncher;
import io.envbench.docker.DockerConnection;
import io.envbench.docker.DockerLauncher;
import io.envbench.recipe.BareMetalTarget;
import io.envbench.recipe.ContainerTarget;
import io.envbench.recipe.TargetSpec;
import io.envbench.settings.InvalidSettingException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The environments this JVM has started, by name, and which one is current (the last started).
 * Thread-safe: JMeter threads of several thread groups read it while one thread switches.
 */
public final class Environments {
    private static final Logger log = LoggerFactory.getLogger(Environments.class);
    private static final Environments INSTANCE = new Environments();

    private final Map<String, RunningTarget> running = new LinkedHashMap<>();
    private volatile String current = "";

    private Environments() {
        // a JVM that ends normally (JMeter closed, test ended) leaves nothing running
        java.lang.Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "envbench-stop-environments"));
    }

    public static Environments get() {
        return INSTANCE;
    }

    /** Name of the environment started last and still running, or "" when none. */
    public String current() {
        return current;
    }

    /** Every environment running now, by name (a copy). */
    public synchronized Map<String, RunningTarget> runningTargets() {
        return new LinkedHashMap<>(running);
    }

    public synchronized Optional<RunningTarget> running(String name) {
        return Optional.ofNullable(running.get(name));
    }

    /** Starts an environment; refuses when one of that name already runs. */
    public RunningTarget start(EnvironmentDefinition def, Path targetsDir, String dockerHost) throws TargetStartException {
        synchronized (this) {
            if (running.containsKey(def.name())) {
                throw new InvalidSettingException("environment", "'" + def.name() + "' is already running; stop it first or use action switch");
            }
        }
        TargetSpec spec = def.resolve(targetsDir);
        reapLeftoversOnce(dockerHost);
        RunningTarget t = spec instanceof BareMetalTarget b
                ? new BareMetalLauncher().start(def.name(), b)
                : new DockerLauncher(dockerHost).start(def.name(), (ContainerTarget) spec);
        synchronized (this) {
            running.put(def.name(), t);
            current = def.name();
        }
        return t;
    }

    private volatile boolean reaped;

    /**
     * Before the first start: stop what killed runs left (host processes, labelled Docker resources), so
     * a leftover does not hold the port. Docker is only asked when it answers; a bare-metal run needs none.
     */
    private void reapLeftoversOnce(String dockerHost) {
        if (reaped) {
            return;
        }
        reaped = true;
        new BareMetalLauncher().reapLeftovers();
        try {
            DockerConnection.connect(dockerHost); // reaps on first connection
        } catch (TargetStartException e) {
            log.debug("no Docker to reap: {}", e.getMessage());
        }
    }

    /** Stops every running environment, then starts this one. */
    public RunningTarget switchTo(EnvironmentDefinition def, Path targetsDir, String dockerHost) throws TargetStartException {
        stopAll();
        return start(def, targetsDir, dockerHost);
    }

    /** @return whether it was running */
    public boolean stop(String name) {
        RunningTarget t;
        synchronized (this) {
            t = running.remove(name);
            if (name.equals(current)) {
                current = "";
            }
        }
        if (t != null) {
            t.stop();
            log.info("stopped environment {}", name);
        }
        return t != null;
    }

    public void stopAll() {
        List<String> names;
        synchronized (this) {
            names = new ArrayList<>(running.keySet());
        }
        names.forEach(this::stop);
    }
}

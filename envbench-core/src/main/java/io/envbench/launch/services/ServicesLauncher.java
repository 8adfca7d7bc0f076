package io.envbench.launch.services;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.envbench.base.container.NetworkMode;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.base.recipe.Launcher;
import io.envbench.base.recipe.ServicesTarget;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerLauncher;
import io.envbench.launch.docker.UserDefinedNetwork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a {@link ServicesTarget}: its network first when the containers need one (a {@link UserDefinedNetwork} with
 * the environment's labels, named {@code envbench-ENV-net-RUN}), then each service in start order, each ready before
 * the next starts, through the same launchers as single targets ({@link BareMetalLauncher}, {@link DockerLauncher}),
 * as the environment {@code ENV.SERVICE} (its container's name and labels, its host process's state file). A start
 * that fails stops what it started and removes the network: nothing is left.
 */
public final class ServicesLauncher implements Launcher<ServicesTarget> {
    private static final Logger log = LoggerFactory.getLogger(ServicesLauncher.class);

    private final DockerConnection connection;

    /** @param connection the owner's connection to the daemon the services' containers run on */
    public ServicesLauncher(DockerConnection connection) {
        this.connection = connection;
    }

    @Override
    public Class<ServicesTarget> kind() {
        return ServicesTarget.class;
    }

    @Override
    public RunningTarget start(String environment, ServicesTarget target) throws TargetStartException {
        long t0 = System.nanoTime();
        UserDefinedNetwork network = null;
        List<RunningServices.Started> started = new ArrayList<>();
        try {
            DockerLauncher docker = new DockerLauncher(connection);
            if (target.ownNetwork()) {
                network = UserDefinedNetwork.create(
                        docker.client(),
                        "envbench-" + environment.replaceAll("[^A-Za-z0-9_.-]", "_") + "-net-" + RunSession.runId(),
                        RunSession.labels(environment));
            }
            for (ServicesTarget.Service s : target.services()) {
                String as = environment + "." + s.name();
                RunningTarget t;
                if (s.spec() instanceof BareMetalTarget b) {
                    t = new BareMetalLauncher().start(as, b);
                } else {
                    ContainerTarget c = (ContainerTarget) s.spec();
                    // a container on a bridge joins the environment's network, named after its service; one on the
                    // host's network cannot
                    boolean bridged = c.options().networkMode() == NetworkMode.BRIDGE;
                    t = docker.start(as, network == null || !bridged ? c : c.on(network.name(), s.name()));
                }
                log.info(
                        "{}: service {} ready in {} ms",
                        environment,
                        s.name(),
                        t.startToReady().toMillis());
                started.add(new RunningServices.Started(s.name(), t));
            }
        } catch (TargetStartException | RuntimeException e) {
            boolean interrupted = Thread.interrupted(); // a cancelled start still removes what it made
            try {
                RunningServices.stopAll(started, network);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            String which = started.size() < target.services().size()
                    ? target.services().get(started.size()).name()
                    : "?";
            if (e instanceof TargetStartException tse) {
                throw new TargetStartException(
                        "service " + which + " of " + environment + ": " + tse.getMessage(), tse);
            }
            throw e;
        }
        return new RunningServices(
                environment, started, target.front(), network, Duration.ofNanos(System.nanoTime() - t0));
    }
}

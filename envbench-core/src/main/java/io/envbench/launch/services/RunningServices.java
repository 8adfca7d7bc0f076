package io.envbench.launch.services;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import io.envbench.base.environment.Endpoint;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.liveness.DeathWatch;
import io.envbench.launch.docker.UserDefinedNetwork;
import net.jcip.annotations.ThreadSafe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running services of one environment. Its endpoint, PID and container are the front service's (where load goes,
 * whose CPU the runner records); a death of any service is the environment's death; {@link #stop()} stops them in the
 * reverse order of their start and then removes the network. Thread-safe: {@link #stop()} runs once.
 */
@ThreadSafe
final class RunningServices implements RunningTarget {
    private static final Logger log = LoggerFactory.getLogger(RunningServices.class);

    /** A started service. */
    record Started(String name, RunningTarget target) {}

    private final String environment;
    private final List<Started> services;
    private final Started front;
    private final UserDefinedNetwork network;
    private final Duration startToReady;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Map<String, RunningTarget> byName;

    RunningServices(
            String environment,
            List<Started> services,
            String front,
            UserDefinedNetwork network,
            Duration startToReady) {
        this.environment = environment;
        this.services = List.copyOf(services);
        this.front = services.stream()
                .filter(s -> s.name().equals(front))
                .findFirst()
                .orElseThrow();
        this.network = network;
        this.startToReady = startToReady;
        Map<String, RunningTarget> m = new LinkedHashMap<>();
        this.services.forEach(s -> m.put(s.name(), s.target()));
        this.byName = Collections.unmodifiableMap(m);
    }

    @Override
    public String environment() {
        return environment;
    }

    @Override
    public Optional<Endpoint> endpoint() {
        return front.target().endpoint();
    }

    @Override
    public Duration startToReady() {
        return startToReady;
    }

    @Override
    public long pid() {
        return front.target().pid();
    }

    @Override
    public Optional<String> containerId() {
        return front.target().containerId();
    }

    /** Made once: the metrics collector asks on every tick. */
    @Override
    public Map<String, RunningTarget> services() {
        return byName;
    }

    @Override
    public String describe() {
        return services.stream()
                        .map(s -> s.name() + ": " + s.target().describe())
                        .collect(Collectors.joining("; "))
                + (network == null ? "" : "; network " + network.name());
    }

    @Override
    public String logs(int lines) {
        return services.stream()
                .map(s -> "--- service " + s.name() + "\n" + s.target().logs(lines))
                .collect(Collectors.joining("\n"));
    }

    @Override
    public DeathWatch watchForDeath(Consumer<String> onDeath) {
        AtomicBoolean told = new AtomicBoolean();
        List<DeathWatch> watches = new ArrayList<>();
        for (Started s : services) {
            watches.add(s.target().watchForDeath(reason -> {
                if (told.compareAndSet(false, true)) {
                    onDeath.accept("service " + s.name() + " " + reason);
                }
            }));
        }
        return () -> watches.forEach(DeathWatch::close);
    }

    @Override
    public void stop() {
        if (stopped.compareAndSet(false, true)) {
            stopAll(services, network);
        }
    }

    /** Stops the services in reverse start order (a failure is logged, the rest still stop), then removes the network. */
    static void stopAll(List<Started> started, UserDefinedNetwork network) {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).target().stop();
            } catch (RuntimeException e) {
                log.warn("stopping service {}: {}", started.get(i).name(), e.toString());
            }
        }
        if (network != null) {
            network.close();
        }
    }
}

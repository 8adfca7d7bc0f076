package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.LocalPorts;
import io.envbench.control.registry.EnvBench;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.PodmanEngine;
import io.envbench.launch.docker.PortHolders;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.measure.publish.Publishing;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.tenants.CpuControlFactory;
import io.envbench.study.tenants.TenantControl;
import net.jcip.annotations.ThreadSafe;

/**
 * An experiment's runs, wired the one way: the checks made before anything starts, the environments, the runner and
 * the CPU control of a multi-tenant experiment. The command line and the controller reach a run only through this
 * class, so both refuse the same inputs with the same messages and run the same way; what they do with the outcome
 * (the report) goes through the report module's one conclusion.
 *
 * <p>{@link #prepare} checks and builds; {@link #run} or {@link #runMissing} runs; {@link #close} stops whatever is
 * left. Thread-safe as the runner is: {@link #cancel} may come from any thread while a run goes on.
 */
@ThreadSafe
public final class ExperimentRun implements AutoCloseable {
    /**
     * How runs are made on this machine; the same for every front end.
     *
     * @param root            the EnvBench folder ({@code targets/}, {@code testplans/}, the assembled JMeter)
     * @param jmeter          the JMeter that runs the load
     * @param daemon          the Docker daemon the containers run on
     * @param metricsInterval between metrics readings, within {@link MetricsCollector#MIN_INTERVAL} and
     *                        {@link MetricsCollector#MAX_INTERVAL}
     * @param dockerRestart   whether the environments' {@code dockerDaemon:} settings may restart the daemon (the user
     *                        said so)
     * @param stopOnExit      stop every environment when the JVM exits; off for an owner that tears down in its own
     *                        order on a signal (the command line)
     * @param publish         where the experiment's figures are published while it runs (Prometheus, InfluxDB)
     */
    public record Settings(
            Path root,
            JMeterInstall jmeter,
            DockerDaemon daemon,
            Duration metricsInterval,
            RestartPermission dockerRestart,
            boolean stopOnExit,
            Publishing publish) {
        public Settings {
            Objects.requireNonNull(publish, "publish");
            Objects.requireNonNull(root, "root");
            Objects.requireNonNull(jmeter, "jmeter");
            Objects.requireNonNull(daemon, "daemon");
            Objects.requireNonNull(dockerRestart, "dockerRestart");
            checkMetricsInterval("metricsInterval", metricsInterval.toMillis());
        }

        /**
         * The one check of a metrics interval, for the settings and for a front end's own field.
         *
         * @throws InvalidSettingException naming {@code field}, when it is outside {@link MetricsCollector#MIN_INTERVAL}
         *     to {@link MetricsCollector#MAX_INTERVAL}
         */
        public static void checkMetricsInterval(String field, long intervalMs) {
            long minMs = MetricsCollector.MIN_INTERVAL.toMillis();
            long maxMs = MetricsCollector.MAX_INTERVAL.toMillis();
            if (intervalMs < minMs) {
                throw new InvalidSettingException(
                        field, intervalMs + " is below " + minMs + "; use " + minMs + " or more, e.g. 1000");
            }
            if (intervalMs > maxMs) {
                throw new InvalidSettingException(
                        field,
                        intervalMs + " is above " + maxMs + " (one row an hour); use " + minMs + " to " + maxMs
                                + ", e.g. 1000");
            }
        }

        /**
         * The defaults: the JMeter assembled under {@code root}, the daemon the docker CLI would use, a reading a
         * second, no daemon restarts, environments stopped when the JVM exits.
         */
        public static Settings of(Path root) {
            return new Settings(
                    root,
                    new JMeterInstall(root.resolve("jmeter-dist/target/jmeter")),
                    DockerDaemon.fromEnvironment(),
                    Duration.ofSeconds(1),
                    RestartPermission.REFUSED,
                    true,
                    Publishing.NONE);
        }

        public Settings withJMeter(JMeterInstall j) {
            return new Settings(root, j, daemon, metricsInterval, dockerRestart, stopOnExit, publish);
        }

        public Settings withDaemon(DockerDaemon d) {
            return new Settings(root, jmeter, d, metricsInterval, dockerRestart, stopOnExit, publish);
        }

        public Settings withMetricsInterval(Duration interval) {
            return new Settings(root, jmeter, daemon, interval, dockerRestart, stopOnExit, publish);
        }

        public Settings withDockerRestart(RestartPermission permission) {
            return new Settings(root, jmeter, daemon, metricsInterval, permission, stopOnExit, publish);
        }

        public Settings withPublishing(Publishing p) {
            return new Settings(root, jmeter, daemon, metricsInterval, dockerRestart, stopOnExit, p);
        }

        public Settings withStopOnExit(boolean stop) {
            return new Settings(root, jmeter, daemon, metricsInterval, dockerRestart, stop, publish);
        }

        Path targets() {
            return root.resolve("targets");
        }

        Path builtinHttpPlan() {
            return root.resolve("testplans/http-load.jmx");
        }
    }

    private final Experiment experiment;
    private final RunDirectory directory;
    private final EnvBench envbench;
    private final ExperimentRunner runner;
    private final RunPublisher publisher;

    private ExperimentRun(
            Experiment experiment,
            RunDirectory directory,
            EnvBench envbench,
            ExperimentRunner runner,
            RunPublisher publisher) {
        this.experiment = experiment;
        this.directory = directory;
        this.envbench = envbench;
        this.runner = runner;
        this.publisher = publisher;
    }

    /**
     * A port the experiment's environments need is free, or made free by removing a container of an EnvBench run whose
     * owner is provably gone (as the first start would); else refused, naming what holds it when it is an EnvBench
     * container (its run, its owner, and the command that frees it).
     */
    private static void checkPortFree(Experiment experiment, int port, DockerDaemon daemon) {
        try {
            LocalPorts.checkFree("port", port);
            return;
        } catch (InvalidSettingException busy) {
            Optional<String> holders = PortHolders.sweepThenDescribe(daemon, port);
            if (holders.isEmpty()) {
                try {
                    LocalPorts.checkFree("port", port); // a dead run's container held it, and is gone now
                    return;
                } catch (InvalidSettingException stillBusy) {
                    throw new InvalidSettingException(
                            experiment.file() + ": port",
                            stillBusy.getMessage().substring(stillBusy.field().length() + 2));
                }
            }
            throw new InvalidSettingException(experiment.file() + ": port", port + " is held by " + holders.get());
        }
    }

    /**
     * Checks what can be checked before anything starts, then wires the run; nothing is started here, and only the
     * containers of EnvBench runs whose owner is provably gone are removed (when one holds a port the run needs).
     * Refused: a Docker daemon that cannot be reached when the experiment uses Docker, a port an environment needs that
     * is taken, a multi-tenant experiment this host cannot run (too few CPUs, interrupt steering without root), and
     * {@code dockerDaemon:} settings that would restart the daemon without permission.
     *
     * @throws InvalidSettingException naming the experiment's field (or the setting) and the fix
     */
    public static ExperimentRun prepare(Experiment experiment, RunDirectory directory, Settings settings) {
        if (experiment.usesDocker()) {
            settings.daemon().check(); // a wrong address or certificate folder is said before the first run
        }
        // placement: podman without Podman (or its API service) is said before the first run, naming the environment
        experiment.environments().stream()
                .filter(e -> e.definition().usesPodman())
                .findFirst()
                .ifPresent(e -> PodmanEngine.checkAvailable("environment " + e.name() + ": placement"));
        for (int port : experiment.ports()) {
            if (port == 0) {
                continue;
            }
            // every run starts its environment on this port: taken now, every run would fail (or measure the stranger)
            checkPortFree(experiment, port, settings.daemon());
        }
        // study 004's (docs/studies.md#study-004) controls of a multi-tenant experiment's configurations
        TenantControl.Factory tenantControls = CpuControlFactory.onThisHost();
        tenantControls.checkHost(experiment);
        // study 001's (docs/studies.md#study-001) row with the userland proxy off restarts the daemon: only when
        // allowed, said before anything
        // starts
        ExperimentRunner.checkDockerDaemon(experiment, settings.daemon(), settings.dockerRestart());
        // isolation: cpus that this host cannot have (too few CPUs, a remote engine here on the target's CPUs)
        RunIsolation.check(experiment);
        // the last check: a Prometheus port in use; from here the endpoint serves until close()
        RunPublisher publisher =
                settings.publish().any() ? RunPublisher.start(settings.publish()) : RunPublisher.none();
        EnvBench envbench = new EnvBench(settings.targets(), settings.daemon(), settings.stopOnExit());
        ExperimentRunner runner = new ExperimentRunner(
                        envbench,
                        settings.jmeter(),
                        settings.builtinHttpPlan(),
                        settings.metricsInterval(),
                        tenantControls)
                .dockerRestart(settings.dockerRestart());
        return new ExperimentRun(experiment, directory, envbench, runner, publisher);
    }

    public Experiment experiment() {
        return experiment;
    }

    public RunDirectory directory() {
        return directory;
    }

    /** Runs every planned run into the run directory, which must not hold a run yet. */
    public ExperimentRunner.Outcome run(RunProgress progress) throws IOException {
        return runner.run(experiment, directory, publisher.around(progress, directory));
    }

    /**
     * Whether a capacity search can raise the experiment's load (the built-in HTTP load, or a plan that paces itself
     * by the rate property), checked before anything is made.
     *
     * @throws InvalidSettingException naming the field and the fix
     */
    public static void checkCapacityLoad(Experiment e) {
        CapacityRun.checkLoad(e);
    }

    /**
     * Searches the capacity of one environment; its steps' files go to {@code capacity/} of the run directory.
     *
     * @throws InvalidSettingException naming the field when the load has no rate to raise or the environment is
     *     unknown
     */
    public CapacitySearch.Result capacity(String environment, RunProgress progress) throws IOException {
        return runner.capacity(experiment, environment, directory.root().resolve("capacity"), progress);
    }

    /** Runs what an interrupted run directory is missing, as it was planned. */
    public ExperimentRunner.Outcome runMissing(RunProgress progress) throws IOException {
        return runner.runMissing(experiment, directory, publisher.around(progress, directory));
    }

    /** Stops the load and the environment of the running run; the runs not started are not started. */
    public void cancel() {
        runner.cancel();
    }

    public boolean cancelled() {
        return runner.cancelled();
    }

    /** What the experiment publishes while it runs (nothing without publishing settings). */
    public RunPublisher publisher() {
        return publisher;
    }

    /** Stops every environment still running (none after a run that ended), then the publishing. */
    @Override
    public void close() {
        try {
            envbench.close();
        } finally {
            publisher.close();
        }
    }
}

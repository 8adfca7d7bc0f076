package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.readiness.PortListeners;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.affinity.CpuAffinity;
import io.envbench.measure.engines.RemoteEngine;
import io.envbench.study.analysis.RunRecord;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.Isolation;
import net.jcip.annotations.ThreadSafe;

/**
 * The load generator on CPUs of its own, the target on the others ({@link Isolation}), applied to each run: JMeter is
 * started confined ({@code taskset -c}), and once the target is ready every process it is made of and the
 * docker-proxy of its port are confined to the target's CPUs. What each process was allowed is read back from /proc
 * during the run and recorded in {@code runs.csv}, isolated or not. Thread-safe.
 */
@ThreadSafe
final class RunIsolation {
    /** How long JMeter may take to exec through {@code taskset} before its CPUs are read. */
    private static final long CONFINED_WITHIN_MS = 3000;

    private final Isolation.Decision decision;
    private final CpuAffinity affinity;

    private RunIsolation(Isolation.Decision decision, CpuAffinity affinity) {
        this.decision = decision;
        this.affinity = affinity;
    }

    /**
     * The experiment's isolation on this host.
     *
     * @throws InvalidSettingException naming {@code isolation} when {@code cpus} cannot be had
     */
    static RunIsolation of(Experiment e) {
        return of(e, Path.of("/proc"), new CpuAffinity());
    }

    /** As {@link #of(Experiment)}, reading processes under {@code proc}. */
    static RunIsolation of(Experiment e, Path proc, CpuAffinity affinity) {
        Isolation.Decision d = e.isolation().decide(e, CpuSet.online());
        if (d.split().isPresent() && !CpuAffinity.available()) {
            if (e.isolation() == Isolation.CPUS) {
                throw new InvalidSettingException(
                        "isolation", "cpus needs taskset (util-linux), which this host lacks; install util-linux");
            }
            d = new Isolation.Decision(Optional.empty(), "taskset (util-linux) is not installed");
        }
        Optional<String> engines = d.split().flatMap(s -> enginesOnTargetCpus(e, s, proc, affinity));
        if (engines.isPresent()) {
            if (e.isolation() == Isolation.CPUS) {
                throw new InvalidSettingException("isolation", "cpus cannot be had: " + engines.get());
            }
            d = new Isolation.Decision(Optional.empty(), engines.get());
        }
        return new RunIsolation(d, affinity);
    }

    /**
     * Remote engines on this machine make the load too, but the user started them, not EnvBench: they are not moved
     * (a process EnvBench did not start keeps its CPUs), only checked. One allowed on a CPU of the target's side
     * would share it with the target; said with the command that starts it on the generator's CPUs.
     */
    private static Optional<String> enginesOnTargetCpus(
            Experiment e, Isolation.Split split, Path proc, CpuAffinity affinity) {
        for (RemoteEngine engine : e.load().engines().engines()) {
            if (!engine.loopback()) {
                continue;
            }
            for (long pid : PortListeners.read(proc, engine.port()).holders()) {
                Optional<CpuSet> allowed = affinity.allowed(pid);
                if (allowed.isPresent() && allowed.get().cpus().stream().anyMatch(split.target()::contains)) {
                    return Optional.of("remote engine " + engine + " (PID " + pid + ") may run on CPUs "
                            + allowed.get() + ", which the target gets (" + split.target()
                            + "); start it on the load generator's CPUs: taskset -c " + split.generator()
                            + " ./envbench jmeter -s ...");
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The experiment's isolation checked before anything starts: {@code isolation: cpus} that this host cannot have
     * (too few CPUs, no taskset, a remote engine on this machine allowed on the target's CPUs) is refused here.
     *
     * @throws InvalidSettingException naming {@code isolation}, why and the fix
     */
    static void check(Experiment e) {
        of(e);
    }

    Isolation.Decision decision() {
        return decision;
    }

    /** The JMeter command, confined to the generator's CPUs when isolated. */
    List<String> jmeterCommand(List<String> command) {
        return decision.split()
                .map(s -> CpuAffinity.confined(s.generator(), command))
                .orElse(command);
    }

    /**
     * Moves this JVM (the runner: it reads the run's metrics, draws live charts and talks to Docker, 1-3% of a core
     * during a run) onto the generator's CPUs for as long as the returned handle is open, so it never takes the
     * target's; closing puts back the CPUs it had (every thread, those started meanwhile too). Nothing when not
     * isolated. Its children are left alone: a target it starts is confined to the target's CPUs once ready, JMeter is
     * started on the generator's.
     *
     * @throws IOException when the runner could not be confined: its runs would share the target's CPUs with it
     */
    RunnerCpus runnerOnGeneratorCpus() throws IOException {
        if (decision.split().isEmpty()) {
            return () -> {};
        }
        long self = ProcessHandle.current().pid();
        Optional<CpuSet> before = affinity.allowed(self);
        affinity.confineProcess(self, decision.split().get().generator());
        return () -> {
            if (before.isPresent()) {
                affinity.confineProcess(self, before.get());
            }
        };
    }

    /** The runner's CPUs while an experiment runs; {@link #close} puts back those it had. */
    interface RunnerCpus extends AutoCloseable {
        @Override
        void close() throws IOException;
    }

    /** One run's observations. */
    Run run() {
        return new Run();
    }

    /** What one run's processes were allowed, filled in as they start. */
    final class Run {
        private volatile String jmeter = "";
        private volatile String target = "";
        private volatile String proxy = "";

        /**
         * Confines the ready target (its process tree, each service's, and the docker-proxy of its ports) when
         * isolated, then reads what they are allowed.
         *
         * @throws IOException when a process could not be confined: the run would measure a shared machine
         */
        void targetReady(RunningTarget t) throws IOException {
            List<Long> roots = new ArrayList<>();
            roots.add(t.pid());
            t.services().values().forEach(s -> roots.add(s.pid()));
            List<Long> proxies = new ArrayList<>();
            List<Integer> ports = new ArrayList<>();
            t.endpoint().ifPresent(ep -> ports.add(ep.port()));
            t.services().values().forEach(s -> s.endpoint().ifPresent(ep -> ports.add(ep.port())));
            ports.stream().distinct().forEach(p -> proxies.addAll(affinity.dockerProxies(p)));
            if (decision.split().isPresent()) {
                CpuSet cpus = decision.split().get().target();
                for (long pid : roots) {
                    if (pid > 0) {
                        affinity.confineTree(pid, cpus);
                    }
                }
                for (long pid : proxies) {
                    affinity.confineTree(pid, cpus);
                }
            }
            target = allowed(roots);
            proxy = allowed(proxies);
        }

        /** Reads JMeter's CPUs once {@code taskset} has set them (at most a few seconds after its start). */
        void jmeterStarted(long pid) {
            Optional<CpuSet> want = decision.split().map(Isolation.Split::generator);
            long until = System.currentTimeMillis() + CONFINED_WITHIN_MS;
            Optional<CpuSet> seen = affinity.allowed(pid);
            while (want.isPresent() && !seen.equals(want) && System.currentTimeMillis() < until) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                seen = affinity.allowed(pid);
            }
            jmeter = seen.map(CpuSet::toString).orElse("");
        }

        RunRecord.Cpus cpus() {
            return new RunRecord.Cpus(jmeter, target, proxy);
        }

        private String allowed(List<Long> pids) {
            return pids.stream()
                    .filter(p -> p > 0)
                    .map(affinity::allowed)
                    .flatMap(Optional::stream)
                    .map(CpuSet::toString)
                    .distinct()
                    .collect(Collectors.joining(" "));
        }
    }
}

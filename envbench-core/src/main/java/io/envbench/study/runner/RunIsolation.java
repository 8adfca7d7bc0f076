package io.envbench.study.runner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.host.affinity.CpuAffinity;
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
        Isolation.Decision d = e.isolation().decide(e, CpuSet.online());
        if (d.split().isPresent() && !CpuAffinity.available()) {
            if (e.isolation() == Isolation.CPUS) {
                throw new InvalidSettingException(
                        "isolation", "cpus needs taskset (util-linux), which this host lacks; install util-linux");
            }
            d = new Isolation.Decision(Optional.empty(), "taskset (util-linux) is not installed");
        }
        return new RunIsolation(d, new CpuAffinity());
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

package io.envbench.jmeter;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.envbench.control.registry.EnvBench;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.measure.metrics.MetricsCollector;
import io.envbench.study.cpucontrol.ControlTimeline;
import io.envbench.study.cpucontrol.CpuAction;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.JMeterContextService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the EnvBench elements of one JMeter JVM share: the {@link EnvBench} instance whose environments the
 * Target Environment samplers start, which environment each thread group started, and the Resource
 * Monitors' collector. JMeter creates elements by reflection and clones them per thread, so static
 * state is the only place they can meet; it decides nothing: each sample is tagged with its own thread
 * group's environment (or the one its Environment Tag names), never with a JVM-wide "current" one.
 */
public final class JMeterEnvBench {
    private static final Logger log = LoggerFactory.getLogger(JMeterEnvBench.class);
    private static EnvBench instance;
    /**
     * thread group -> environment its Target Environment sampler started last. By instance, not name: two
     * groups may share a name ("Thread Group"); JMeter keeps one instance per group for all its threads.
     */
    private static final Map<AbstractThreadGroup, String> BY_THREAD_GROUP =
            Collections.synchronizedMap(new IdentityHashMap<>());

    private static MetricsCollector collector;
    /** Who shows the CPU Controls' actions live (their GUIs): told of every action of every CPU Control in this JVM. */
    private static final List<ControlTimeline> CPU_CONTROL_WATCHERS = new CopyOnWriteArrayList<>();

    private static int collectorUsers;

    private JMeterEnvBench() {}

    /**
     * The instance, made from {@code envbench.targets.dir} and {@code envbench.docker.host} (with
     * {@code envbench.docker.tls.verify} and {@code envbench.docker.cert.path}) on first use.
     */
    public static synchronized EnvBench get() {
        if (instance == null) {
            instance = new EnvBench(EnvBenchProperties.targetsDir(), EnvBenchProperties.dockerDaemon());
            // a stopped environment is no thread group's any more, and its endpoint is not published
            instance.environments().addListener(new EnvironmentRegistry.Listener() {
                @Override
                public void stopped(String environment) {
                    BY_THREAD_GROUP.values().removeIf(environment::equals);
                    EnvBenchProperties.forgetEndpoint(environment);
                }

                /**
                 * Its endpoint goes as at a stop, and JMeter's log says why: load to it falls back to the loopback defaults
                 * and fails. Its thread groups keep it as theirs, so their samples stay tagged with it and an Environment
                 * Tag marks their failures with the reason ({@link #whyDown}).
                 */
                @Override
                public void died(String environment, String reason) {
                    EnvBenchProperties.forgetEndpoint(environment);
                    log.error(
                            "EnvBench: {}; its envbench.{}.host/port are removed, so samples meant for it fail from now on",
                            death(environment, reason),
                            environment);
                }
            });
        }
        return instance;
    }

    public static EnvironmentRegistry environments() {
        return get().environments();
    }

    /** Remembers that the calling thread's thread group started (or switched to) this environment. */
    public static void startedByThisThreadGroup(String environment) {
        AbstractThreadGroup g = JMeterContextService.getContext().getThreadGroup();
        if (g != null) {
            BY_THREAD_GROUP.put(g, environment);
        }
    }

    /**
     * The environment the calling thread's thread group started; else, when exactly one environment runs,
     * that one (a plan that starts it in a setUp thread group); else empty.
     */
    public static Optional<String> environmentOfThisThreadGroup() {
        AbstractThreadGroup g = JMeterContextService.getContext().getThreadGroup();
        String own = g == null ? null : BY_THREAD_GROUP.get(g);
        if (own != null) {
            return Optional.of(own);
        }
        var running = environments().runningTargets().keySet();
        return running.size() == 1 ? Optional.of(running.iterator().next()) : Optional.empty();
    }

    /**
     * Why {@code environment} is down, when it died during the test (an environment stopped on purpose, or never started,
     * has no reason). Asks only an instance already made: a plan without Target Environment samplers makes none.
     */
    public static Optional<String> whyDown(String environment) {
        EnvBench e;
        synchronized (JMeterEnvBench.class) {
            e = instance;
        }
        return e == null ? Optional.empty() : e.environments().whyDown(environment);
    }

    /**
     * How a death during the test reads wherever a sample reports it (the stop sample, a failed load sample's message):
     * {@code environment docker died during the test: killed: out of memory, limit 6m}; empty when it did not die.
     */
    public static Optional<String> death(String environment) {
        return whyDown(environment).map(reason -> death(environment, reason));
    }

    private static String death(String environment, String reason) {
        return "environment " + environment + " died during the test: " + reason;
    }

    /** At the end of a test: stop every environment and forget the thread groups. */
    public static void testEnded() {
        BY_THREAD_GROUP.clear();
        EnvBench e;
        synchronized (JMeterEnvBench.class) {
            e = instance;
        }
        if (e != null) {
            e.environments().stopAll();
        }
    }

    /**
     * Starts the collector, or joins the one running (several Resource Monitors in a plan share it). The one who
     * starts it has {@code beforeFirstTick} called with it before its thread starts: listeners added there hear every
     * tick, the metrics file's first row included (added after the start, a slow set-up such as an InfluxDB writer's
     * would miss the rows written meanwhile). If it throws, the collector is closed and nothing is joined.
     */
    public static synchronized MetricsCollector joinCollector(
            Duration interval, Path file, Consumer<MetricsCollector> beforeFirstTick) throws IOException {
        if (collector == null) {
            MetricsCollector c = new MetricsCollector(
                    environments(), interval, file, ProcessHandle.current().pid());
            try {
                beforeFirstTick.accept(c);
            } catch (RuntimeException e) {
                c.close();
                throw e;
            }
            collector = c.start();
        }
        collectorUsers++;
        return collector;
    }

    /** Leaves the collector; the last one out stops it and closes its file. */
    public static synchronized void leaveCollector() {
        if (collector != null && --collectorUsers <= 0) {
            collector.close();
            collector = null;
            collectorUsers = 0;
        }
    }

    /** The collector running in this JVM, if any (the Resource Monitor's GUI draws its ticks). */
    public static synchronized Optional<MetricsCollector> collector() {
        return Optional.ofNullable(collector);
    }

    /** Tells {@code watcher} (a GUI) of every action of the CPU Controls that run in this JVM, from now on. */
    public static void watchCpuControl(ControlTimeline watcher) {
        CPU_CONTROL_WATCHERS.add(watcher);
    }

    public static void unwatchCpuControl(ControlTimeline watcher) {
        CPU_CONTROL_WATCHERS.remove(watcher);
    }

    /** A CPU Control acted: every watcher hears it (on the control's thread; a watcher returns quickly). */
    public static void cpuControlActed(CpuAction action) {
        for (var w : CPU_CONTROL_WATCHERS) {
            try {
                w.acted(action);
            } catch (RuntimeException e) {
                log.warn("a CPU Control watcher failed on {}: {}", action.describe(), e.toString());
            }
        }
    }
}

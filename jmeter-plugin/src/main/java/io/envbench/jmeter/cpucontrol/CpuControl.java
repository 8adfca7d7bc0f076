package io.envbench.jmeter.cpucontrol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.envbench.base.environment.RunningTarget;
import io.envbench.base.environment.TargetStartException;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.control.registry.EnvironmentRegistry;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.jmeter.EnvBenchProperties;
import io.envbench.jmeter.JMeterEnvBench;
import io.envbench.jmeter.JmeterCommandLine;
import io.envbench.jmeter.samplers.ContainerOptionsSampler;
import io.envbench.jmeter.samplers.EngineMetricsSampler;
import io.envbench.jmeter.samplers.TargetEnvironmentSampler;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.study.cpucontrol.CpuAction;
import io.envbench.study.cpucontrol.CpuControlLoop;
import io.envbench.study.cpucontrol.CpuController;
import io.envbench.study.cpucontrol.Tenant;
import io.envbench.study.cpucontrol.TenantReadings;
import io.envbench.study.cpucontrol.TimelineCsv;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.InterruptSteering;
import io.envbench.study.steering.ReceivePacketSteering;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.Clearable;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;
import org.apache.jmeter.threads.PostThreadGroup;
import org.apache.jmeter.threads.SetupThreadGroup;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * EnvBench CPU Control (a listener): study 004's (docs/studies.md#study-004) CPU controller over the containers this
 * JMeter's Target Environment samplers started, each running environment with a container being a tenant named after
 * its environment. The fields are checked at the test's start (a wrong one stops the test before its first sample,
 * naming the field). The loop ({@link CpuControlLoop}) starts at the first load sample (one that is not EnvBench's own,
 * nor of a setUp or tearDown thread group) over the tenants running
 * then, and starts again over the new set whenever a tenant starts, stops or dies; every sample's elapsed time goes
 * to its tenant's 90% line ({@link TenantReadings#recordResponse}): the tenant named by the sample's variable
 * {@code envbench.env} (the Environment Tag), else by its thread group's name. Every action goes to the timeline file
 * ({@link TimelineCsv}), jmeter.log and the GUI. At the test's end (a stop too) the loop closes, the cpusets are put
 * back, and the IRQ affinities, RPS masks and irqbalance through the {@link HostSettingsJournal} they were written in.
 *
 * <p>Not {@code Remoteable}: on a remote engine it runs on the engine, over the environments that engine started
 * (none when the controlling side or the runner owns them: it then changes nothing). One instance serves every
 * thread (NoThreadClone); thread-safe: the loop is (re)built under the instance's monitor, samples read volatile
 * fields only.
 */
public class CpuControl extends AbstractTestElement
        implements TestStateListener, SampleListener, NoThreadClone, Clearable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(CpuControl.class);
    static final String TITLE = "EnvBench CPU Control";

    public static final String MODE = "CpuControl.mode";
    public static final String INTERVAL = "CpuControl.interval_s";
    public static final String HIGH_TENANTS = "CpuControl.high_tenants";
    public static final String GOALS = "CpuControl.goals_ms";
    public static final String CPUS_PER_TENANT = "CpuControl.cpus_per_tenant";
    public static final String FLOATING = "CpuControl.floating";
    public static final String IRQ_STEERING = "CpuControl.irq_steering";
    public static final String IRQ_BALANCE = "CpuControl.irqbalance";
    public static final String RPS_STEERING = "CpuControl.rps_steering";
    public static final String FILENAME = "CpuControl.filename";

    public static final String DEFAULT_MODE = "${__P(envbench.cpucontrol.mode,dynamic)}";
    public static final String DEFAULT_INTERVAL = "${__P(envbench.cpucontrol.interval.seconds,2)}";
    public static final String DEFAULT_HIGH_TENANTS = "${__P(envbench.cpucontrol.high.tenants,)}";
    public static final String DEFAULT_GOALS = "${__P(envbench.cpucontrol.goals.ms,)}";
    public static final String DEFAULT_CPUS_PER_TENANT = "${__P(envbench.cpucontrol.cpus.per.tenant,1)}";
    public static final String DEFAULT_FLOATING = "${__P(envbench.cpucontrol.floating,unpinned)}";
    public static final String DEFAULT_IRQ_STEERING = "${__P(envbench.cpucontrol.irq.steering,off)}";
    public static final String DEFAULT_IRQ_BALANCE = "${__P(envbench.cpucontrol.irqbalance,refuse)}";
    public static final String DEFAULT_RPS_STEERING = "${__P(envbench.cpucontrol.rps.steering,off)}";
    public static final String DEFAULT_FILENAME = "${__P(envbench.cpucontrol.file,envbench-cpucontrol.csv)}";

    /** Like a sampler error with "Stop Test": threads finish their sample, no thread group starts after. */
    private transient Runnable stopTest = StandardJMeterEngine::stopEngine;

    private transient HostRoots roots = HostRoots.real();

    private transient CpuControlFields fields;
    private transient Path timelineFile;
    private transient TimelineCsv timeline;
    private transient HostSettingsJournal journal;
    private transient InterruptSteering irqs;
    private transient ReceivePacketSteering rps;
    private transient ScheduledExecutorService watch;
    private transient EnvironmentRegistry.Listener onEnvironments;
    private transient CpuControlLoop loop;
    /** The tenants of the loop running now: name to container id. */
    private transient Map<String, String> loopTenants = Map.of();

    private transient volatile TenantReadings readings;
    private transient volatile Set<String> tenantNames = Set.of();
    private transient volatile boolean loadSeen;
    private transient volatile boolean running;
    /** When the first loop started: the timeline's seconds count from there, as the loop's own do. */
    private transient Instant controlStartedAt;

    // the fields: kept as typed (expressions are replaced when the test runs)
    public String getMode() {
        return getPropertyAsString(MODE, DEFAULT_MODE);
    }

    public void setMode(String v) {
        setProperty(MODE, v);
    }

    public String getIntervalSeconds() {
        return getPropertyAsString(INTERVAL, DEFAULT_INTERVAL);
    }

    public void setIntervalSeconds(String v) {
        setProperty(INTERVAL, v);
    }

    public String getHighTenants() {
        return getPropertyAsString(HIGH_TENANTS, DEFAULT_HIGH_TENANTS);
    }

    public void setHighTenants(String v) {
        setProperty(HIGH_TENANTS, v);
    }

    public String getGoals() {
        return getPropertyAsString(GOALS, DEFAULT_GOALS);
    }

    public void setGoals(String v) {
        setProperty(GOALS, v);
    }

    public String getCpusPerTenant() {
        return getPropertyAsString(CPUS_PER_TENANT, DEFAULT_CPUS_PER_TENANT);
    }

    public void setCpusPerTenant(String v) {
        setProperty(CPUS_PER_TENANT, v);
    }

    public String getFloating() {
        return getPropertyAsString(FLOATING, DEFAULT_FLOATING);
    }

    public void setFloating(String v) {
        setProperty(FLOATING, v);
    }

    public String getIrqSteering() {
        return getPropertyAsString(IRQ_STEERING, DEFAULT_IRQ_STEERING);
    }

    public void setIrqSteering(String v) {
        setProperty(IRQ_STEERING, v);
    }

    public String getIrqBalance() {
        return getPropertyAsString(IRQ_BALANCE, DEFAULT_IRQ_BALANCE);
    }

    public void setIrqBalance(String v) {
        setProperty(IRQ_BALANCE, v);
    }

    public String getRpsSteering() {
        return getPropertyAsString(RPS_STEERING, DEFAULT_RPS_STEERING);
    }

    public void setRpsSteering(String v) {
        setProperty(RPS_STEERING, v);
    }

    public String getFilename() {
        return getPropertyAsString(FILENAME, DEFAULT_FILENAME);
    }

    public void setFilename(String v) {
        setProperty(FILENAME, v);
    }

    /** The fields checked; the first wrong one named. */
    CpuControlFields checkedFields() {
        return CpuControlFields.parse(
                asRun(MODE, DEFAULT_MODE),
                asRun(INTERVAL, DEFAULT_INTERVAL),
                asRun(HIGH_TENANTS, DEFAULT_HIGH_TENANTS),
                asRun(GOALS, DEFAULT_GOALS),
                asRun(CPUS_PER_TENANT, DEFAULT_CPUS_PER_TENANT),
                asRun(IRQ_STEERING, DEFAULT_IRQ_STEERING),
                asRun(IRQ_BALANCE, DEFAULT_IRQ_BALANCE),
                asRun(RPS_STEERING, DEFAULT_RPS_STEERING),
                asRun(FLOATING, DEFAULT_FLOATING));
    }

    private String asRun(String key, String defaultExpression) {
        return EnvBenchProperties.fieldAsRun(this, key, defaultExpression);
    }

    /**
     * Checks the fields and the timeline file's folder, and makes the steering (irqbalance found under {@code refuse}
     * stops the test here); nothing is changed on the host yet. A wrong field stops the test before its first sample.
     */
    @Override
    public synchronized void testStarted() {
        try {
            fields = checkedFields();
            timelineFile = EnvBenchProperties.metricsFile(
                            asRun(FILENAME, DEFAULT_FILENAME), JmeterCommandLine.resultsFile())
                    .orElse(null);
            if (timelineFile != null && !Files.isDirectory(timelineFile.getParent())) {
                throw new InvalidSettingException(
                        CpuControlFields.TIMELINE_FILE,
                        "the folder " + timelineFile.getParent()
                                + " does not exist; give a file in an existing folder, or a relative name (next to the -l results file)");
            }
        } catch (InvalidSettingException e) {
            fail(e.getMessage() + ". The test is stopped; nothing was changed.");
            return;
        }
        try {
            if (fields.interruptSteering() || fields.receiveSteering()) {
                journal = HostSettingsJournal.open(HostSettingsJournal.defaultFolder(), DaemonRestart.onThisHost());
                if (fields.interruptSteering()) {
                    irqs = InterruptSteering.ofNetworkDevices(journal, roots, fields.irqBalance());
                }
                if (fields.receiveSteering()) {
                    rps = new ReceivePacketSteering(journal, roots);
                }
            }
        } catch (InvalidSettingException e) {
            fail(e.getMessage() + ". The test is stopped; nothing was changed.");
            closeJournal();
            return;
        } catch (IOException | RuntimeException e) {
            fail("interrupt steering could not start: " + e.getMessage()
                    + ". The test is stopped; nothing was changed.");
            closeJournal();
            return;
        }
        running = true;
        loadSeen = false;
        watch = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "envbench-cpucontrol-tenants");
            t.setDaemon(true);
            return t;
        });
        onEnvironments = new EnvironmentRegistry.Listener() {
            @Override
            public void started(RunningTarget target) {
                followTenantsSoon();
            }

            @Override
            public void stopped(String environment) {
                followTenantsSoon();
            }

            @Override
            public void died(String environment, String reason) {
                followTenantsSoon();
            }
        };
        JMeterEnvBench.environments().addListener(onEnvironments);
        // a tenant can also appear from outside a listener's view (a start under way at the test's start): look every
        // second
        watch.scheduleWithFixedDelay(this::followTenants, 1, 1, TimeUnit.SECONDS);
        log.info(
                "{}: {} every {} s, {} CPU(s) per tenant, floating tenants on {}{}{}; it starts with the first load sample, over the containers "
                        + "this JMeter's Target Environment samplers started",
                TITLE,
                fields.settings().mode().name().toLowerCase(Locale.ROOT),
                fields.settings().interval().toSeconds(),
                fields.settings().cpusPerTenant(),
                fields.settings().floating().yamlName(),
                fields.interruptSteering() ? ", interrupts steered" : "",
                fields.receiveSteering() ? ", RPS steered" : "");
    }

    @Override
    public void testStarted(String host) {
        testStarted();
    }

    /** Closes the loop (cpusets back), then the journal (IRQ affinities, RPS masks, irqbalance back). */
    @Override
    public void testEnded() {
        ScheduledExecutorService w;
        synchronized (this) {
            running = false;
            w = watch;
            watch = null;
        }
        if (w != null) {
            w.shutdownNow();
            try {
                w.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            if (onEnvironments != null) {
                JMeterEnvBench.environments().removeListener(onEnvironments);
                onEnvironments = null;
            }
            closeLoop("the test ended");
            controlStartedAt = null;
            irqs = null;
            rps = null;
            closeJournal();
            if (timeline != null) {
                try {
                    timeline.close();
                } catch (IOException e) {
                    log.warn("{}: timeline {} not closed: {}", TITLE, timeline.file(), e.getMessage());
                }
                timeline = null;
            }
        }
    }

    @Override
    public void testEnded(String host) {
        testEnded();
    }

    /** Each load sample's elapsed time to its tenant's 90% line; the first one starts the loop. */
    @Override
    public void sampleOccurred(SampleEvent e) {
        if (!running) {
            return;
        }
        var context = JMeterContextService.getContext();
        Sampler s = context.getCurrentSampler();
        if (s instanceof TargetEnvironmentSampler
                || s instanceof ContainerOptionsSampler
                || s instanceof EngineMetricsSampler) {
            return; // EnvBench's own: a start's elapsed time is start-to-ready, no response time of the tenant
        }
        if (context.getThreadGroup() instanceof SetupThreadGroup
                || context.getThreadGroup() instanceof PostThreadGroup) {
            return; // preparing (a database rebuilt) or cleaning up, not the tenant's load
        }
        if (!loadSeen) {
            loadSeen = true;
            followTenantsSoon();
        }
        TenantReadings r = readings;
        if (r == null) {
            return;
        }
        String tenant = tenantOf(e);
        if (tenant != null && tenantNames.contains(tenant)) {
            r.recordResponse(tenant, e.getResult().getTime());
        }
    }

    /** The sample's tenant: its variable {@code envbench.env} (the Environment Tag), else its thread group's name. */
    private String tenantOf(SampleEvent e) {
        JMeterVariables vars = JMeterContextService.getContext().getVariables();
        String env = vars == null ? null : vars.get(EnvBenchProperties.ENV_VARIABLE);
        if (env != null && tenantNames.contains(env)) {
            return env;
        }
        String group = e.getThreadGroup();
        return group == null ? null : group.trim();
    }

    @Override
    public void sampleStarted(SampleEvent e) {
        // only ends count
    }

    @Override
    public void sampleStopped(SampleEvent e) {
        // only ends count
    }

    /** JMeter's Clear All clears the GUI's table; the element keeps no actions of its own (the timeline file has them). */
    @Override
    public void clearData() {
        // nothing held here
    }

    private void followTenantsSoon() {
        ScheduledExecutorService w = watch;
        if (w != null && !w.isShutdown()) {
            try {
                w.execute(this::followTenants);
            } catch (RejectedExecutionException ended) {
                // the test ended meanwhile
            }
        }
    }

    /** Once load runs: when the running containers differ from the loop's tenants, the loop starts again over them. */
    synchronized void followTenants() {
        if (!running || !loadSeen) {
            return;
        }
        Map<String, String> now = new TreeMap<>(); // tenant-1, tenant-2, ...: homes in name order
        JMeterEnvBench.environments()
                .runningTargets()
                .forEach((name, t) -> t.containerId().ifPresent(id -> now.put(name, id)));
        if (now.equals(loopTenants)) {
            return;
        }
        if (loop != null) {
            closeLoop("the tenants changed to " + (now.isEmpty() ? "none" : String.join(",", now.keySet())));
        }
        if (now.isEmpty()) {
            return;
        }
        try {
            startLoop(now);
        } catch (InvalidSettingException e) {
            fail(e.getMessage() + ". The test is stopped; every change is put back.");
        } catch (IOException | RuntimeException | TargetStartException e) {
            log.error("{} could not start", TITLE, e);
            fail("could not start: " + e.getMessage() + ". The test is stopped; every change is put back.");
        }
    }

    private void startLoop(Map<String, String> running) throws IOException, TargetStartException {
        if (timeline == null && timelineFile != null) {
            timeline = new TimelineCsv(timelineFile);
        }
        List<Tenant> tenants = new ArrayList<>();
        running.forEach((name, id) -> tenants.add(fields.tenant(name, id)));
        List<String> missing = new ArrayList<>();
        var settings = fields.settingsFor(List.copyOf(running.keySet()), missing);
        DockerConnection daemon = JMeterEnvBench.environments().docker();
        CpuSet online = CpuSet.online();
        TenantReadings r = TenantReadings.ofContainers(daemon, tenants, TenantReadings.DEFAULT_WINDOW);
        try {
            var b = CpuControlLoop.overContainers(new CpuController(settings, tenants, online), r, daemon, online)
                    .timeline(JMeterEnvBench::cpuControlActed);
            if (timeline != null) {
                b.timeline(timeline);
            }
            if (irqs != null) {
                b.steerInterrupts(irqs);
            }
            if (rps != null) {
                b.steerReceivePacketsOf(
                        rps, roots, tenants.stream().map(t -> r.pidOf(t.name())).toList());
            }
            CpuControlLoop l = b.build();
            readings = r;
            tenantNames = Set.copyOf(running.keySet());
            loopTenants = new LinkedHashMap<>(running);
            loop = l;
            if (controlStartedAt == null) {
                controlStartedAt = Instant.now();
            }
            note(
                    "",
                    "control " + String.join(",", running.keySet()),
                    "the tenants running when load runs"
                            + (missing.isEmpty() ? "" : "; high tenants not running: " + String.join(",", missing)));
            l.start();
        } catch (IOException | RuntimeException e) {
            readings = null;
            tenantNames = Set.of();
            loopTenants = Map.of();
            if (loop != null) {
                loop.close();
                loop = null;
            }
            r.close();
            throw e;
        }
    }

    /** Closes the loop running (its cpusets put back) and its readings. */
    private void closeLoop(String why) {
        CpuControlLoop l = loop;
        TenantReadings r = readings;
        loop = null;
        readings = null;
        tenantNames = Set.of();
        loopTenants = Map.of();
        if (l != null) {
            l.close();
            note("", "stop controlling", why);
        }
        if (r != null) {
            r.close();
        }
    }

    private void closeJournal() {
        if (journal != null) {
            journal.close(); // restores and logs
            journal = null;
        }
    }

    /** An action of this element's own (the loop's are written by the loop), to every timeline. */
    private void note(String tenant, String what, String why) {
        Instant now = Instant.now();
        CpuAction a = new CpuAction(
                now,
                controlStartedAt == null ? Duration.ZERO : Duration.between(controlStartedAt, now),
                tenant,
                CpuAction.Kind.NOTE,
                what,
                why);
        log.info("cpu control: {}", a.describe());
        JMeterEnvBench.cpuControlActed(a);
        if (timeline != null) {
            timeline.acted(a);
        }
    }

    private void fail(String message) {
        JMeterUtils.reportErrorToUser(TITLE + ": " + message, TITLE);
        stopTest.run();
    }

    /** For tests: what stops the test (JMeter's engine otherwise). */
    void onFailureStop(Runnable stop) {
        this.stopTest = stop;
    }

    /** For tests: the procfs and sysfs roots steering works on. */
    void hostRoots(HostRoots roots) {
        this.roots = roots;
    }
}

package io.envbench.study.tenants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.study.cpucontrol.CpuControlLoop;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.CpuControlSettings;
import io.envbench.study.cpucontrol.CpuController;
import io.envbench.study.cpucontrol.DockerCpusets;
import io.envbench.study.cpucontrol.ReadingSource;
import io.envbench.study.cpucontrol.Tenant;
import io.envbench.study.cpucontrol.TenantReading;
import io.envbench.study.experiment.Tenancy;
import io.envbench.study.experiment.TenantConfiguration;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.InterruptSteering;
import io.envbench.study.steering.IrqBalancePolicy;
import io.envbench.study.steering.ReceivePacketSteering;

/**
 * The controls of study 004 (docs/studies.md#study-004) ({@link io.envbench.study.cpucontrol}) as {@link
 * TenantControl}s: per run a {@link CpuControlLoop} of the configuration's mode and interval over the tenants'
 * containers (their cpusets through {@link DockerCpusets}, within the experiment's CPUs), reading each tenant's CPU and
 * 90% line from the run's {@link TenantMetrics}, every action into the run's timeline; with {@code interruptSteering:
 * on}, the network IRQs and the tenants' veth receive processing steered to the CPUs no tenant is pinned to, through a
 * {@link HostSettingsJournal} put back at {@link TenantControl#stop} (and by the reaper after a crash). irqbalance, when
 * it runs, is refused ({@link IrqBalancePolicy#REFUSE}: EnvBench does not touch a system daemon unless asked).
 */
public final class CpuControlFactory implements TenantControl.Factory {
    private final HostRoots roots;
    private final Path journalFolder;
    private final IrqBalancePolicy irqBalance;

    /**
     * @param roots         procfs and sysfs ({@link HostRoots#real()})
     * @param journalFolder where the steering's host settings are written down ({@link HostSettingsJournal#defaultFolder()})
     * @param irqBalance    what to do about a running irqbalance
     */
    public CpuControlFactory(HostRoots roots, Path journalFolder, IrqBalancePolicy irqBalance) {
        this.roots = roots;
        this.journalFolder = journalFolder;
        this.irqBalance = irqBalance;
    }

    /** On this host: the real procfs and sysfs, the default journal folder, irqbalance refused. */
    public static CpuControlFactory onThisHost() {
        return new CpuControlFactory(HostRoots.real(), HostSettingsJournal.defaultFolder(), IrqBalancePolicy.REFUSE);
    }

    @Override
    public void check(TenantConfiguration c, int i) {
        if (c.interruptSteering() && !Files.isWritable(roots.proc().resolve("irq/default_smp_affinity"))) {
            throw new InvalidSettingException(
                    "configurations[" + i + "].interruptSteering",
                    "'on' writes the network IRQs' " + "affinities under "
                            + roots.proc().resolve("irq")
                            + ", which this user cannot; run as root, or use interruptSteering: off");
        }
    }

    @Override
    public TenantControl create(Tenancy tenancy, TenantConfiguration configuration, DockerConnection docker) {
        if (configuration.cpuControl() == CpuControlMode.NONE && !configuration.interruptSteering()) {
            return TenantControl.NONE;
        }
        return new Control(tenancy, configuration, docker);
    }

    /** One run's loop. */
    private final class Control implements TenantControl {
        private final Tenancy tenancy;
        private final TenantConfiguration configuration;
        private final DockerConnection docker;
        private CpuControlLoop loop;
        private HostSettingsJournal journal;
        private Timeline timeline;

        Control(Tenancy tenancy, TenantConfiguration configuration, DockerConnection docker) {
            this.tenancy = tenancy;
            this.configuration = configuration;
            this.docker = docker;
        }

        @Override
        public synchronized void start(List<RunningTenant> tenants, Supplier<TenantMetrics> metrics, Timeline timeline)
                throws IOException {
            this.timeline = timeline;
            List<Tenant> placed = new ArrayList<>();
            for (RunningTenant t : tenants) {
                Optional<Duration> goal = t.plan().responseTimeGoalMs().isPresent()
                        ? Optional.of(
                                Duration.ofMillis(t.plan().responseTimeGoalMs().getAsLong()))
                        : Optional.empty();
                placed.add(new Tenant(t.name(), t.containerId(), goal));
            }
            // the scenario's high tenants float from the start (static: for good); none given: static decides from a
            // first reading
            Set<String> high = new TreeSet<>();
            tenants.stream().filter(t -> t.plan().high()).forEach(t -> high.add(t.name()));
            CpuControlSettings settings = CpuControlSettings.defaults(configuration.cpuControl())
                    .withInterval(configuration.controlInterval())
                    .withFloating(configuration.floating())
                    .withHighTenants(high);
            CpuController controller = new CpuController(settings, placed, tenancy.cpuSet());
            CpuControlLoop.Builder b = CpuControlLoop.overContainers(
                            controller, readings(metrics), docker, tenancy.cpuSet())
                    // its action says what ("pin 0", "release to 1", "steer IRQ 38 -> CPU 1", "cpuset back to 0-1")
                    .timeline(timeline); // each action with its kind and reason
            if (configuration.interruptSteering()) {
                journal = HostSettingsJournal.open(journalFolder, DaemonRestart.onThisHost());
                b.steerInterrupts(InterruptSteering.ofNetworkDevices(journal, roots, irqBalance));
                b.steerReceivePacketsOf(
                        new ReceivePacketSteering(journal, roots),
                        roots,
                        tenants.stream().map(RunningTenant::pid).toList());
            }
            loop = b.build();
            loop.start();
        }

        /** Each tenant's CPU time and 90% line since the loop's previous read, from the run's metrics. */
        private ReadingSource readings(Supplier<TenantMetrics> metrics) {
            return () -> {
                TenantMetrics m = metrics.get();
                List<TenantReading> out = new ArrayList<>();
                m.tenants().forEach((name, t) -> {
                    if (t.window() > 0 && !Double.isNaN(t.cpuPct())) {
                        Duration interval = Duration.ofMillis(Math.max(1, Math.round(t.window() * 1000)));
                        TenantReading r = TenantReading.ofCores(name, t.cpuPct() / 100, interval);
                        out.add(
                                t.p90Ms().isPresent()
                                        ? r.withResponseTime90(Duration.ofMillis(
                                                Math.round(t.p90Ms().getAsDouble())))
                                        : r);
                    }
                });
                return out;
            };
        }

        @Override
        public synchronized void stop() {
            try {
                if (loop != null) {
                    loop.close(); // cpusets put back
                }
            } finally {
                loop = null;
                if (journal != null) {
                    var r = journal.restore(); // IRQ affinities, RPS masks, irqbalance put back
                    timeline.record(Timeline.ALL, "host settings put back", r.summary());
                    journal = null;
                }
            }
        }
    }
}

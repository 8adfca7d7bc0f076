package io.envbench.study.tenants;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.Tenancy;
import io.envbench.study.experiment.TenantConfiguration;

/**
 * The one point where a CPU controller (none, static, dynamic; and interrupt steering) plugs into the runner of a
 * multi-tenant experiment. Per run the runner asks the {@link Factory} for a control of the run's configuration,
 * starts every tenant, waits until all are ready, runs the warm-up, then calls {@link #start} for the measured part
 * and {@link #stop} when the load has ended (also when the run fails or is cancelled), before it stops the tenants.
 * Everything a control changes on the host (cpusets, IRQ affinities, RPS masks, irqbalance) it writes down first and
 * puts back in {@link #stop} (see {@code io.envbench.host.hostsettings}).
 */
public interface TenantControl {
    /**
     * Begins controlling: may change the tenants' cpusets and the host's interrupt settings now and later (from its own
     * thread), writing each action to {@code timeline}. Returns promptly.
     *
     * @param tenants  every tenant of the run, running and ready
     * @param metrics  the latest figures, each call covering the time since the previous one; call it from one thread
     * @param timeline where each action goes, with why
     * @throws IOException when the control cannot begin (the run then fails, and {@link #stop} is still called)
     */
    void start(List<RunningTenant> tenants, Supplier<TenantMetrics> metrics, Timeline timeline) throws IOException;

    /** Stops controlling and puts back what it changed; safe to call twice and without {@link #start}. */
    void stop();

    /** Makes the control of a configuration; one factory serves a whole experiment. */
    interface Factory {
        /**
         * Whether this factory can run the configuration; called for each configuration before the first run, so a
         * configuration no controller serves is refused before anything starts.
         *
         * @throws InvalidSettingException naming the configuration's field and the fix
         */
        void check(TenantConfiguration configuration, int configurationIndex);

        /**
         * What a multi-tenant experiment needs of this host, said before anything starts (by {@code envbench run} and the
         * controller alike): at least {@code tenants.cpus} CPUs online, and every configuration one this factory can run
         * ({@link #check}). Nothing for an experiment without tenants.
         *
         * @throws InvalidSettingException naming the file and the field ({@code FILE: tenants.cpus}) and the fix
         */
        default void checkHost(Experiment experiment) {
            if (experiment.tenancy().isEmpty()) {
                return;
            }
            Tenancy t = experiment.tenancy().get();
            int hostCpus = CpuSet.online().size();
            if (hostCpus < t.cpus()) {
                throw new InvalidSettingException(
                        experiment.file() + ": tenants.cpus",
                        t.cpus() + " CPUs, and this host has " + hostCpus + "; run it on a machine with " + t.cpus()
                                + " CPUs, or give tenants.cpus: " + hostCpus + " (and a scaled load)");
            }
            for (int i = 0; i < t.configurations().size(); i++) {
                try {
                    check(t.configurations().get(i), i);
                } catch (InvalidSettingException e) {
                    throw new InvalidSettingException(
                            experiment.file() + ": " + e.field(),
                            e.getMessage().substring(e.field().length() + 2));
                }
            }
        }

        /**
         * A new control for one run of the configuration, over the experiment's tenants ({@code tenancy}: CPUs, goals),
         * whose containers it reaches through the run's own connection ({@code docker}).
         */
        TenantControl create(Tenancy tenancy, TenantConfiguration configuration, DockerConnection docker);
    }

    /** A control that does nothing: {@code cpuControl: none} with {@code interruptSteering: off}. */
    TenantControl NONE = new TenantControl() {
        @Override
        public void start(List<RunningTenant> tenants, Supplier<TenantMetrics> metrics, Timeline timeline) {}

        @Override
        public void stop() {}
    };

    /**
     * The factory of this build without {@code io.envbench.study.cpucontrol}: {@code none} with {@code interruptSteering: off}
     * only; a static or dynamic control or steering is refused by {@link Factory#check} before anything starts.
     */
    Factory NONE_ONLY = new Factory() {
        @Override
        public void check(TenantConfiguration c, int i) {
            if (c.cpuControl() != CpuControlMode.NONE) {
                throw new InvalidSettingException(
                        "configurations[" + i + "].cpuControl",
                        "'" + TenantConfiguration.yamlName(c.cpuControl()) + "' has no "
                                + "controller in this build (only none); use cpuControl: none");
            }
            if (c.interruptSteering()) {
                throw new InvalidSettingException(
                        "configurations[" + i + "].interruptSteering",
                        "'on' has no controller in this build; " + "use interruptSteering: off");
            }
        }

        @Override
        public TenantControl create(Tenancy tenancy, TenantConfiguration c, DockerConnection docker) {
            return NONE;
        }
    };
}

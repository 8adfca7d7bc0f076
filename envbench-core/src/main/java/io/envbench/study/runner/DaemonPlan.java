package io.envbench.study.runner;

import java.io.IOException;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.DaemonSettings;
import io.envbench.launch.dockerdaemon.DaemonSettingsChange;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;

/**
 * The Docker daemon settings of an experiment whose environments ask for some ({@code dockerDaemon:}): opened before its
 * first run, each run's settings given before it starts, the daemon's own put back after the last.
 *
 * @param change the daemon's settings change
 * @param before the settings the daemon had (those of a run that asks for none)
 * @param docker the run's connection to the daemon, whose pooled connections go after a restart
 */
record DaemonPlan(DaemonSettingsChange change, DaemonSettings before, DockerConnection docker) {
    /**
     * Whether the experiment's settings can be had on {@code daemon} with {@code permission}; nothing is changed.
     *
     * @throws InvalidSettingException naming the environment's {@code dockerDaemon} and the fix, when they cannot
     */
    static void check(Experiment e, DockerDaemon daemon, RestartPermission permission) {
        DaemonPlan plan = open(e, new DockerConnection(daemon), permission, new RunProgress() {});
        if (plan != null) {
            plan.change().close(); // nothing was changed
        }
    }

    /**
     * The plan of an experiment, before its first run; null when no environment asks for settings. Refused (nothing
     * run, nothing changed) when one asks for other settings than the daemon has and restarts are not allowed, or the
     * daemon is not this host's.
     *
     * @throws InvalidSettingException naming the environment's {@code dockerDaemon} and the fix
     */
    static DaemonPlan open(Experiment e, DockerConnection docker, RestartPermission permission, RunProgress progress) {
        if (e.environments().stream().noneMatch(p -> p.dockerDaemon().isPresent())) {
            return null;
        }
        DaemonSettingsChange change;
        try {
            change = DaemonSettingsChange.open(docker.daemon(), permission);
        } catch (IOException ex) {
            throw new InvalidSettingException("dockerDaemon", ex.getMessage());
        }
        DaemonSettings now;
        try {
            now = change.effective();
        } catch (IOException ex) {
            change.close();
            throw new InvalidSettingException("dockerDaemon", ex.getMessage());
        }
        for (int i = 0; i < e.environments().size(); i++) {
            EnvironmentPlan p = e.environments().get(i);
            if (p.dockerDaemon().isPresent()
                    && !p.dockerDaemon().get().equals(now)
                    && permission != RestartPermission.GRANTED) {
                change.close();
                throw new InvalidSettingException(
                        "environments[" + i + "].dockerDaemon",
                        p.name() + " runs with "
                                + p.dockerDaemon().get().describe() + " and the Docker daemon has " + now.describe()
                                + ": its runs restart the "
                                + "daemon (every container on it stops), which EnvBench does only when told; run with --allow-docker-restart "
                                + "(the controller asks), or remove dockerDaemon:");
            }
        }
        progress.log("docker daemon: " + now.describe() + " before the experiment; put back after it");
        return new DaemonPlan(change, now, docker);
    }

    /** Gives the daemon the settings run {@code r} needs (its environment's, else those it had); empty when it has them. */
    Optional<String> settingsFor(Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress) {
        try {
            DaemonSettings wanted =
                    e.environment(r.environment()).dockerDaemon().orElse(before);
            DaemonSettingsChange.Applied a = change.apply(wanted);
            if (a.restarted()) {
                docker.restarted(); // the run's pooled connections went to the old dockerd
                progress.log(r.id() + ": docker daemon restarted with "
                        + a.now().describe() + " in " + a.took().toMillis() + " ms");
            }
            dir.appendDockerDaemon(r, a.now());
            return Optional.empty();
        } catch (IOException | RuntimeException ex) {
            progress.log(r.id() + ": the Docker daemon's settings could not be set: " + ex.getMessage());
            return Optional.of(ex.getMessage() == null ? ex.toString() : ex.getMessage());
        }
    }

    /** Puts the daemon's settings back as they were before the experiment, and lets the change go. */
    void putBack(RunProgress progress) {
        DaemonSettingsChange.Restored back = change.restore();
        progress.log("docker daemon: " + back.summary());
        change.close();
    }
}

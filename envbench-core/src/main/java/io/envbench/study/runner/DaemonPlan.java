package io.envbench.study.runner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.envbench.base.environment.TargetStartException;
import io.envbench.base.recipe.ServiceRecipe;
import io.envbench.base.recipe.TargetRecipe;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.DaemonSettings;
import io.envbench.launch.dockerdaemon.DaemonSettingsChange;
import io.envbench.launch.dockerdaemon.RestartPermission;
import io.envbench.launch.dockerdaemon.StorageDriverImages;
import io.envbench.study.analysis.RunDirectory;
import io.envbench.study.experiment.EnvironmentPlan;
import io.envbench.study.experiment.Experiment;
import io.envbench.study.experiment.PlannedRun;

/**
 * The Docker daemon settings of an experiment whose environments ask for some ({@code dockerDaemon:}): opened before its
 * first run, each run's settings given before it starts, the daemon's own put back after the last.
 *
 * <p>An environment on another storage driver finds none of the images built here in that driver's store: they are
 * saved before the daemon first leaves its own driver, loaded into the other when it lacks them, and removed from it
 * again before the daemon's settings are put back.
 *
 * @param change the daemon's settings change
 * @param before the settings the daemon had (those of a run that asks for none)
 * @param docker the run's connection to the daemon, whose pooled connections go after a restart
 * @param images the images carried into other storage drivers; empty when no environment asks for another driver
 */
record DaemonPlan(
        DaemonSettingsChange change,
        DaemonSettings before,
        DockerConnection docker,
        Optional<StorageDriverImages> images) {
    /**
     * Whether the experiment's settings can be had on {@code daemon} with {@code permission}; nothing is changed.
     *
     * @throws InvalidSettingException naming the environment's {@code dockerDaemon} and the fix, when they cannot
     */
    static void check(Experiment e, DockerDaemon daemon, RestartPermission permission) {
        DaemonPlan plan = open(e, new DockerConnection(daemon), permission, new RunProgress() {}, null);
        if (plan != null) {
            plan.change().close(); // nothing was changed
        }
    }

    /**
     * The plan of an experiment, before its first run; null when no environment asks for settings. Refused (nothing
     * run, nothing changed) when one asks for other settings than the daemon has and restarts are not allowed, or the
     * daemon is not this host's.
     *
     * @param targetsDir where the environments' target recipes are, for the images another storage driver needs; null
     *     when only checking
     * @throws InvalidSettingException naming the environment's {@code dockerDaemon} and the fix
     */
    static DaemonPlan open(
            Experiment e,
            DockerConnection docker,
            RestartPermission permission,
            RunProgress progress,
            Path targetsDir) {
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
                    && !p.dockerDaemon().get().over(now).equals(now)
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
        List<String> carried = new ArrayList<>();
        for (EnvironmentPlan p : e.environments()) {
            if (targetsDir != null
                    && p.dockerDaemon().flatMap(r -> r.storageDriver()).isPresent()
                    && !p.dockerDaemon().get().over(now).storageDriver().equals(now.storageDriver())) {
                TargetRecipe recipe =
                        TargetRecipe.load(targetsDir, p.definition().target());
                carried.add(recipe.image());
                if (recipe.hasServices()) {
                    recipe.services().stream().map(ServiceRecipe::image).forEach(carried::add);
                }
            }
        }
        Optional<StorageDriverImages> images = carried.isEmpty()
                ? Optional.empty()
                // on disk, never /tmp: where /tmp is a tmpfs, hundreds of MB of images would take the memory a
                // disk study's page cache is measured against
                : Optional.of(new StorageDriverImages(
                        carried,
                        Path.of(
                                "/var/tmp",
                                "envbench-driver-images-"
                                        + ProcessHandle.current().pid())));
        images.ifPresent(i -> progress.log("docker daemon: " + String.join(", ", i.images())
                + " carried into the other storage driver for its runs, removed from it after the experiment"));
        return new DaemonPlan(change, now, docker, images);
    }

    /** Gives the daemon the settings run {@code r} needs (its environment's, else those it had); empty when it has them. */
    Optional<String> settingsFor(Experiment e, PlannedRun r, RunDirectory dir, RunProgress progress) {
        try {
            DaemonSettings wanted = e.environment(r.environment())
                    .dockerDaemon()
                    .map(d -> d.over(before))
                    .orElse(before);
            if (images.isPresent() && !wanted.storageDriver().equals(before.storageDriver())) {
                images.get().save(docker.client()); // once, while the daemon still runs its own driver
            }
            DaemonSettingsChange.Applied a = change.apply(wanted);
            if (a.restarted()) {
                docker.restarted(); // the run's pooled connections went to the old dockerd
                progress.log(r.id() + ": docker daemon restarted with "
                        + a.now().describe() + " in " + a.took().toMillis() + " ms");
            }
            if (images.isPresent() && !wanted.storageDriver().equals(before.storageDriver())) {
                long t0 = System.nanoTime();
                List<String> loaded = images.get().ensure(docker.client(), wanted.storageDriver());
                if (!loaded.isEmpty()) {
                    progress.log(r.id() + ": loaded " + String.join(", ", loaded) + " into storage driver "
                            + wanted.storageDriver() + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
            }
            dir.appendDockerDaemon(r, a.now());
            return Optional.empty();
        } catch (IOException | TargetStartException | RuntimeException ex) {
            progress.log(r.id() + ": the Docker daemon's settings could not be set: " + ex.getMessage());
            return Optional.of(ex.getMessage() == null ? ex.toString() : ex.getMessage());
        }
    }

    /**
     * Removes the images carried into other storage drivers (restarting into each), then puts the daemon's settings
     * back as they were before the experiment, and lets the change go.
     */
    void putBack(RunProgress progress) {
        images.ifPresent(i -> {
            for (String driver : i.driversLoaded()) {
                try {
                    if (change.apply(before.withStorageDriver(driver)).restarted()) {
                        docker.restarted();
                    }
                    progress.log("docker daemon, storage driver " + driver + ": "
                            + String.join("; ", i.removeLoaded(docker.client(), driver)));
                } catch (IOException | TargetStartException | RuntimeException ex) {
                    progress.log("docker daemon: the images loaded into storage driver " + driver
                            + " could not be removed: " + ex.getMessage());
                }
            }
            i.close();
        });
        DaemonSettingsChange.Restored back = change.restore();
        progress.log("docker daemon: " + back.summary());
        change.close();
    }
}

package io.envbench.e2e;

import java.nio.file.Path;
import java.time.Duration;

import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.dockerdaemon.DaemonConfigFile;
import io.envbench.launch.dockerdaemon.DaemonRestart;
import io.envbench.launch.dockerdaemon.DaemonSettings;
import io.envbench.launch.dockerdaemon.DaemonSettingsChange;
import io.envbench.launch.dockerdaemon.RestartPermission;

/**
 * The owner {@link DockerDaemonSettingsTest} kills: in its own JVM it turns the local daemon's userland proxy off,
 * writing down in the journal folder given as the first argument (which starts its reaper), prints its reaper's PID and
 * "ready", then waits to be killed without restoring anything.
 */
public final class OwnerThatChangesDaemonSettings {
    private OwnerThatChangesDaemonSettings() {}

    public static void main(String[] args) throws Exception {
        DaemonSettingsChange change = DaemonSettingsChange.open(
                DockerDaemon.fromEnvironment(),
                DaemonConfigFile.DEFAULT,
                Path.of(args[0]),
                DaemonRestart.onThisHost(),
                RestartPermission.GRANTED);
        DaemonSettingsChange.Applied applied = change.apply(new DaemonSettings(false));
        System.out.println(
                "applied " + applied.now().describe() + " in " + applied.took().toMillis() + " ms");
        System.out.println("reaper " + ReaperProcess.ofThisJvm().pid().orElse(-1));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}

package io.envbench.launch.dockerdaemon;

import java.nio.file.Path;
import java.util.function.Consumer;

import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweeper;

/**
 * Puts back the host settings a dead owner changed, from its journals ({@link HostSettingsJournal#sweepLeftovers});
 * a changed Docker daemon configuration is put back by restarting this host's daemon.
 */
public final class HostSettingsSweeper implements Sweeper {
    @Override
    public String kind() {
        return ReaperProcess.HOST_SETTINGS;
    }

    @Override
    public int sweep(String place, long ownerPid, Consumer<String> say) {
        HostSettingsJournal.Sweep sweep =
                HostSettingsJournal.sweepLeftovers(Path.of(place), DaemonRestart.onThisHost());
        for (var r : sweep.restored()) {
            say.accept("put back host settings: " + r.summary());
            r.skipped().forEach(say);
            r.failed().forEach(say);
        }
        sweep.refused().forEach(say);
        return sweep.restored().size();
    }
}

package io.envbench.launch.bare;

import java.nio.file.Path;
import java.util.function.Consumer;

import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweeper;

/** Stops a dead owner's bare-metal processes, found by their state files. */
public final class BareSweeper implements Sweeper {
    @Override
    public String kind() {
        return ReaperProcess.BARE;
    }

    @Override
    public int sweep(String place, long ownerPid, Consumer<String> say) {
        int stopped = new BareMetalLauncher(Path.of(place)).reapLeftovers();
        if (stopped > 0) {
            say.accept("stopped " + stopped + " bare-metal process(es) of owner PID " + ownerPid + " (state in " + place
                    + ")");
        }
        return stopped;
    }
}

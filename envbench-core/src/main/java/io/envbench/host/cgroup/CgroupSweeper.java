package io.envbench.host.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweeper;

/** Removes a cgroup a dead owner made and left, stopping what ran in it ({@link TransientMemoryCgroup#removeLeftover}). */
public final class CgroupSweeper implements Sweeper {
    @Override
    public String kind() {
        return ReaperProcess.CGROUP;
    }

    @Override
    public int sweep(String place, long ownerPid, Consumer<String> say) {
        Path cgroup = Path.of(place);
        try {
            if (!TransientMemoryCgroup.removeLeftover(cgroup)) {
                return 0;
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove the cgroup " + cgroup + ": " + e, e);
        }
        say.accept("removed the cgroup " + cgroup + " and stopped what ran in it");
        return 1;
    }
}

package io.envbench.control.reaper;

import java.io.IOException;
import java.util.List;

import io.envbench.host.cgroup.CgroupSweeper;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweep;
import io.envbench.launch.bare.BareSweeper;
import io.envbench.launch.docker.DockerSweeper;
import io.envbench.launch.dockerdaemon.HostSettingsSweeper;

/**
 * The reaper process's main: started by {@link ReaperProcess} with the owner's PID, it runs a {@link Sweep} with
 * every kind of sweeper EnvBench has. A new kind of place an owner may leave things in adds its sweeper here.
 */
public final class Reaper {
    private Reaper() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        new Sweep(
                        List.of(new DockerSweeper(), new BareSweeper(), new CgroupSweeper(), new HostSettingsSweeper()),
                        System.out)
                .run(Long.parseLong(args[0]), System.in);
    }
}

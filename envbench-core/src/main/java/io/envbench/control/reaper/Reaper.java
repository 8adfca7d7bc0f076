package io.envbench.control.reaper;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import io.envbench.host.cgroup.CgroupEscape;
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

    /** {@code OWNER_PID [LOG_FILE]}: with a log file, its PID goes to standard output first, everything else there. */
    public static void main(String[] args) throws IOException, InterruptedException {
        PrintStream log = System.out;
        if (args.length > 1) {
            long self = ProcessHandle.current().pid();
            log = new PrintStream(new FileOutputStream(args[1], true), true, StandardCharsets.UTF_8);
            // out of the owner's cgroup before the owner hears of it: from then on a kill of that cgroup misses it
            for (String line : CgroupEscape.toRoots(CGROUP_ROOT, self)) {
                log.println("reaper " + self + ": " + line);
            }
            System.out.println("pid " + self);
            System.out.flush();
            System.out.close(); // the owner read it and closed its end: nothing more goes that way
            System.setOut(log);
        }
        new Sweep(List.of(new DockerSweeper(), new BareSweeper(), new CgroupSweeper(), new HostSettingsSweeper()), log)
                .run(Long.parseLong(args[0]), System.in);
    }

    /** Where the host's cgroup hierarchies are mounted. */
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
}

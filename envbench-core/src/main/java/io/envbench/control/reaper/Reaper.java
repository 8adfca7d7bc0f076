package io.envbench.control.reaper;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import io.envbench.host.cgroup.CgroupEscape;
import io.envbench.host.cgroup.CgroupSweeper;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.host.reaper.Sweep;
import io.envbench.host.reaper.Sweeper;
import io.envbench.launch.bare.BareSweeper;
import io.envbench.launch.docker.DockerSweeper;
import io.envbench.launch.dockerdaemon.HostSettingsSweeper;

/**
 * The reaper process's main: started by {@link ReaperProcess} with the owner's PID, it runs a {@link Sweep} with
 * every kind of sweeper EnvBench has. A new kind of place an owner may leave things in adds its sweeper here.
 */
public final class Reaper {
    private Reaper() {}

    /**
     * {@code OWNER_PID LOG_FILE SOCKET}: it connects to the owner's socket, says its PID there and reads the owner's
     * places from that connection until it ends, logging to the file.
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: Reaper OWNER_PID LOG_FILE SOCKET (started by EnvBench, not by hand)");
            System.exit(2);
        }
        long owner = Long.parseLong(args[0]);
        List<Sweeper> sweepers =
                List.of(new DockerSweeper(), new BareSweeper(), new CgroupSweeper(), new HostSettingsSweeper());
        long self = ProcessHandle.current().pid();
        PrintStream log = new PrintStream(new FileOutputStream(args[1], true), true, StandardCharsets.UTF_8);
        // out of the owner's cgroup before the owner hears of it: from then on a kill of that cgroup misses it
        for (String line : CgroupEscape.toRoots(CGROUP_ROOT, self)) {
            log.println("reaper " + self + ": " + line);
        }
        try (SocketChannel owners = SocketChannel.open(UnixDomainSocketAddress.of(args[2]))) {
            OutputStream toOwner = Channels.newOutputStream(owners);
            toOwner.write(("pid " + self + "\n").getBytes(StandardCharsets.UTF_8));
            toOwner.flush();
            new Sweep(sweepers, log).run(owner, Channels.newInputStream(owners));
        }
    }

    /** Where the host's cgroup hierarchies are mounted. */
    private static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
}

package io.envbench.launch.dockerdaemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dockerd serving a socket found in a procfs tree: by the socket's listening inode and the command name (a service
 * manager holding the same socket is not it), with its command line, environment, folder, log and systemd unit; and on
 * this host's real {@code /proc}. dockerd's flags read as its flag parser reads them.
 */
class RunningDockerdTest {
    @TempDir
    Path proc;

    @Test
    void theDockerdHoldingTheListeningSocketIsFoundWithWhatItTakesToStartItAgain() throws IOException {
        Path log = proc.resolve("dockerd.log");
        Files.writeString(log, "");
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(
                proc.resolve("net/unix"),
                "Num       RefCount Protocol Flags    Type St Inode Path\n"
                        + "0000000000000000: 00000002 00000000 00000000 0001 03 555 /var/run/docker.sock\n" // a
                        // client's
                        // end
                        + "0000000000000000: 00000002 00000000 00010000 0001 01 777 /var/run/docker.sock\n"
                        + "0000000000000000: 00000002 00000000 00010000 0001 01 888 /run/other.sock\n");
        process(1, "systemd", List.of("/sbin/init"), 777, log, "1:name=systemd:/init.scope\n");
        process(41, "dockerd", List.of("/usr/bin/dockerd", "--config-file", "/x.json"), 888, log, "0::/\n");
        process(
                42,
                "dockerd",
                List.of("/usr/sbin/dockerd", "-H", "unix:///var/run/docker.sock"),
                777,
                log,
                "1:name=systemd:/system.slice/docker.service\n");
        RunningDockerd d = RunningDockerd.listeningOn(proc, Path.of("/var/run/docker.sock"))
                .orElseThrow();
        assertEquals(42, d.pid());
        assertEquals(4242, d.startTicks());
        assertEquals(
                List.of("/usr/sbin/dockerd", "-H", "unix:///var/run/docker.sock"),
                d.commandLine().arguments());
        assertEquals(List.of("PATH=/usr/sbin:/usr/bin", "LANG=C"), d.environment());
        assertEquals(Path.of("/work/main"), d.workingDir());
        assertEquals(Optional.of(log), d.log());
        assertEquals(Optional.of("docker.service"), d.systemdUnit());
        assertTrue(d.runs(proc));
        assertEquals(Optional.empty(), RunningDockerd.listeningOn(proc, Path.of("/run/none.sock")));
    }

    @Test
    void dockerdFlagsAreReadAsItsFlagParserReadsThem() {
        DockerdCommandLine c = new DockerdCommandLine(
                List.of("dockerd", "--userland-proxy", "--config-file", "/a.json", "--data-root=/d"));
        assertEquals(Optional.of("true"), c.flag("userland-proxy", true), "a bare boolean flag is true");
        assertEquals(Path.of("/a.json"), c.configFile(DaemonConfigFile.DEFAULT));
        assertEquals(Optional.of("/d"), c.flag("data-root", false));
        DockerdCommandLine d = new DockerdCommandLine(List.of("dockerd", "--userland-proxy=false"));
        assertEquals(Optional.of("false"), d.flag("userland-proxy", true));
        assertEquals(DaemonConfigFile.DEFAULT, d.configFile(DaemonConfigFile.DEFAULT));
        assertEquals(Optional.empty(), new DockerdCommandLine(List.of("dockerd")).flag("userland-proxy", true));
    }

    @Test
    void thisHostsDaemonIsFoundOnItsSocket() throws IOException {
        DockerRequired.check();
        DockerRequired.require(
                Files.exists(Path.of("/var/run/docker.sock")) && "0".equals(DockerRequired.uid()),
                "the local socket, as root",
                "reading another process's /proc/PID/fd needs root");
        RunningDockerd d = DaemonRestart.onThisHost()
                .running("unix:///var/run/docker.sock")
                .orElseThrow();
        assertTrue(d.commandLine().arguments().get(0).endsWith("dockerd"), d.toString());
        assertTrue(d.runs(Path.of("/proc")));
        assertTrue(
                d.environment().stream().anyMatch(e -> e.startsWith("PATH=")),
                "its PATH, to start it again: " + d.environment());
        System.out.println("this host's dockerd: PID " + d.pid() + ", "
                + d.commandLine().arguments() + ", log " + d.log() + ", unit " + d.systemdUnit());
    }

    private void process(long pid, String comm, List<String> argv, long socketInode, Path log, String cgroup)
            throws IOException {
        Path p = proc.resolve(Long.toString(pid));
        Files.createDirectories(p.resolve("fd"));
        Files.writeString(p.resolve("comm"), comm + "\n");
        Files.writeString(p.resolve("stat"), pid + " (" + comm + ") S 1 " + "0 ".repeat(17) + (pid * 101) + " 0 0\n");
        Files.write(p.resolve("cmdline"), (String.join("\0", argv) + "\0").getBytes(StandardCharsets.UTF_8));
        Files.write(p.resolve("environ"), "PATH=/usr/sbin:/usr/bin\0LANG=C\0".getBytes(StandardCharsets.UTF_8));
        Files.createSymbolicLink(p.resolve("cwd"), Path.of("/work/main"));
        Files.createSymbolicLink(p.resolve("fd/1"), log);
        Files.createSymbolicLink(p.resolve("fd/3"), Path.of("socket:[" + socketInode + "]"));
        Files.writeString(p.resolve("cgroup"), cgroup);
    }
}

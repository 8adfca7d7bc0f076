package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.github.dockerjava.api.model.Ulimit;
import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What differs for Podman, on fixture trees: its missing service said with the fix, its containers' limits. */
class PodmanEngineTest {
    @TempDir
    Path dir;

    private static final String LIMITS = """
            Limit                     Soft Limit           Hard Limit           Units
            Max cpu time              unlimited            unlimited            seconds
            Max processes             32768                32768                processes
            Max open files            1024                 20000                files
            Max locked memory         8388608              8388608              bytes
            """;

    @Test
    void containersGetTheHardLimitsOfThePodmanProcess() {
        List<Ulimit> limits = PodmanEngine.limits(LIMITS.lines().toList());
        assertEquals(2, limits.size(), limits.toString());
        assertEquals(new Ulimit("nproc", 32768L, 32768L), limits.get(0));
        assertEquals(new Ulimit("nofile", 20000L, 20000L), limits.get(1), "the hard limit, soft raised to it");
        assertEquals(
                List.of(),
                PodmanEngine.limits(
                        List.of("Max processes             unlimited            unlimited            processes")),
                "unlimited: Podman's own default");
    }

    @Test
    void theLimitsAreReadFromThePodmanProcessServingTheSocket() throws Exception {
        Path proc = dir.resolve("proc");
        Path socket = dir.resolve("podman.sock");
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(
                proc.resolve("net/unix"),
                "Num       RefCount Protocol Flags    Type St Inode Path\n"
                        + "0000000000000000: 00000002 00000000 00010000 0001 01 4242 " + socket + "\n"
                        + "0000000000000000: 00000002 00000000 00000000 0001 03 4243 " + socket + "\n");
        process(
                proc,
                7,
                "systemd",
                "4242",
                "Max processes             99                   99                   processes\n");
        process(proc, 9, "podman", "4242", LIMITS);
        process(
                proc,
                11,
                "podman",
                "9999",
                "Max processes             5                    5                    processes\n");
        assertEquals(
                List.of(new Ulimit("nproc", 32768L, 32768L), new Ulimit("nofile", 20000L, 20000L)),
                PodmanEngine.containerLimits(proc, socket),
                "podman holding the listening socket, not systemd beside it nor a podman on another socket");
        assertEquals(List.of(), PodmanEngine.containerLimits(proc, dir.resolve("other.sock")), "nobody serves it");
    }

    private static void process(Path proc, long pid, String comm, String inode, String limits) throws Exception {
        Path p = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(p.resolve("comm"), comm + "\n");
        Files.writeString(p.resolve("limits"), limits);
        Files.createDirectories(p.resolve("fd"));
        Files.createSymbolicLink(p.resolve("fd/3"), Path.of("socket:[" + inode + "]"));
    }

    @Test
    void aMissingPodmanIsNamedWithTheFieldAndTheFix() {
        Path socket = dir.resolve("podman.sock");
        InvalidSettingException notInstalled = assertThrows(
                InvalidSettingException.class,
                () -> PodmanEngine.checkAvailable("environment podman-bridge: placement", socket, false));
        assertEquals("environment podman-bridge: placement", notInstalled.field());
        assertTrue(
                notInstalled.getMessage().contains("not installed")
                        && notInstalled.getMessage().contains("apt-get install podman")
                        && notInstalled.getMessage().contains(PodmanEngine.SERVICE_COMMAND),
                notInstalled.getMessage());
        InvalidSettingException notServed = assertThrows(
                InvalidSettingException.class, () -> PodmanEngine.checkAvailable("placement", socket, true));
        assertTrue(
                notServed.getMessage().contains("nothing serves " + socket)
                        && notServed.getMessage().contains(PodmanEngine.SERVICE_COMMAND)
                        && !notServed.getMessage().contains("apt-get"),
                notServed.getMessage());
    }

    @Test
    void anExistingSocketPassesTheCheck() throws Exception {
        Path socket = Files.createFile(dir.resolve("podman.sock"));
        PodmanEngine.checkAvailable("placement", socket, true); // the connection then says whether it answers
        assertEquals(PodmanEngine.SOCKET, PodmanEngine.daemon().address());
        assertTrue(PodmanEngine.daemon().isLocalSocket());
    }
}

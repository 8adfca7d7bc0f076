package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import io.envbench.base.container.ContainerEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a container's cgroup gives its own figures, on fixture trees laid out as Podman and Docker leave them: rootful
 * Podman on v1 (cgroupfs: {@code /libpod_parent/libpod-ID}), on v2 (systemd: {@code machine.slice/libpod-ID.scope}),
 * rootless on both, and a v2 host that does not delegate cpuset or memory.
 */
class CgroupControllersTest {
    @TempDir
    Path root;

    private static final String ID = "698d021bfca2037d85b9115bee728a950ef30dc1681362e6f720f67f1bb27a68";

    private void write(String rel, String content) throws Exception {
        Path f = root.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
    }

    private Optional<String> problem(ContainerEngine engine, boolean rootless) {
        return CgroupControllers.problem(root.resolve("cgroup"), root.resolve("proc"), 42, engine, rootless);
    }

    /** Podman 4.3 rootful with cgroupfs on cgroup v1, as /proc/PID/cgroup showed it on the project's machine. */
    private void rootfulPodmanV1() throws Exception {
        String p = "/libpod_parent/libpod-" + ID;
        StringBuilder cgroup = new StringBuilder();
        int i = 9;
        for (String c : new String[] {
            "name=systemd", "pids", "blkio", "freezer", "devices", "memory", "cpuset", "cpuacct", "cpu"
        }) {
            cgroup.append(i--).append(':').append(c).append(':').append(p).append('\n');
            if (!c.startsWith("name=")) {
                Files.createDirectories(root.resolve("cgroup/" + c + p));
            }
        }
        cgroup.append("0::").append(p).append('\n');
        write("proc/42/cgroup", cgroup.toString());
    }

    @Test
    void rootfulPodmanOnV1HasEveryController() throws Exception {
        rootfulPodmanV1();
        assertEquals(Optional.empty(), problem(ContainerEngine.PODMAN, false));
    }

    @Test
    void aV1ControllerThatIsNotMountedIsNamed() throws Exception {
        rootfulPodmanV1();
        Files.delete(root.resolve("cgroup/cpuset/libpod_parent/libpod-" + ID));
        String m = problem(ContainerEngine.PODMAN, false).orElseThrow();
        assertTrue(m.contains("the cpuset controller is not mounted") && m.contains("mount -t cgroup -o cpuset"), m);
    }

    @Test
    void rootlessOnV1IsRefusedWithTheFix() throws Exception {
        // rootless Podman on v1 leaves the container in the user's session
        String session = "/user.slice/user-1000.slice/session-3.scope";
        write("proc/42/cgroup", "4:memory:" + session + "\n3:cpuset:/\n1:cpu,cpuacct:" + session + "\n");
        for (ContainerEngine engine : ContainerEngine.values()) {
            String m = problem(engine, true).orElseThrow();
            assertTrue(m.startsWith("rootless " + engine.displayName() + " on cgroup v1"), m);
            assertTrue(
                    m.contains(session) && m.contains("as root") && m.contains("Delegate=cpu cpuset io memory pids"),
                    m);
        }
    }

    @Test
    void rootfulPodmanOnV2WithEveryControllerDelegated() throws Exception {
        write("cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        write("cgroup/machine.slice/libpod-" + ID + ".scope/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("proc/42/cgroup", "0::/machine.slice/libpod-" + ID + ".scope\n");
        assertEquals(Optional.empty(), problem(ContainerEngine.PODMAN, false));
    }

    @Test
    void aV2HostThatDoesNotDelegateMemoryNamesItAndTheParentToFix() throws Exception {
        write("cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("cgroup/system.slice/docker-abc.scope/cgroup.controllers", "cpuset cpu io pids\n");
        write("proc/42/cgroup", "0::/system.slice/docker-abc.scope\n");
        String m = problem(ContainerEngine.DOCKER, false).orElseThrow();
        assertTrue(m.contains("/system.slice/docker-abc.scope has no memory controller"), m);
        assertTrue(
                m.contains("echo '+memory' > " + root.resolve("cgroup/system.slice") + "/cgroup.subtree_control"), m);
        assertTrue(!m.contains("cpuset"), "cpuset is there: " + m);
    }

    @Test
    void rootlessPodmanOnV2WithSystemdsDefaultDelegationNamesCpuAndCpuset() throws Exception {
        // systemd delegates memory and pids to a user by default: cpu and cpuset are missing
        String scope = "user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" + ID + ".scope";
        write("cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
        write("cgroup/" + scope + "/cgroup.controllers", "memory pids\n");
        write("proc/42/cgroup", "0::/" + scope + "\n");
        String m = problem(ContainerEngine.PODMAN, true).orElseThrow();
        assertTrue(m.contains("has no cpu and cpuset controllers (cgroup v2, rootless Podman: not delegated"), m);
        assertTrue(m.contains("user@.service.d/delegate.conf") && m.contains("Delegate=cpu cpuset io memory pids"), m);
    }

    @Test
    void aProcessThatIsGoneIsLeftToTheReading() {
        assertEquals(Optional.empty(), problem(ContainerEngine.PODMAN, false));
    }
}

package io.envbench.study.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import io.envbench.base.environment.RunSession;
import io.envbench.base.units.CpuSet;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.study.steering.HostRoots;
import io.envbench.study.steering.VethHostEnd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic controller on two real containers at a 1 s interval: both pinned (cpuset and {@code Cpus_allowed_list}),
 * one made busy is released after 3 saturated steps and pinned again after 3 calm ones, the timeline says so, the
 * veth host end of a container is found, and close puts the cpusets back; the containers are removed after. Prints the
 * reaction times. Needs Docker and at least 2 CPUs; run under {@code flock /work/docker.lock}.
 */
class CpuControlRealTest {
    /** Idle until /tmp/go exists, then a busy loop until /tmp/stop exists, then idle. */
    static final String SCRIPT =
            "while [ ! -e /tmp/go ]; do sleep 0.1; done; while [ ! -e /tmp/stop ]; do :; done; sleep 3600";

    @TempDir
    Path dir;

    @Test
    void aBusyTenantIsReleasedAndPinnedAgainOnRealContainers() throws Exception {
        DockerRequired.check();
        CpuSet online = CpuSet.online();
        DockerRequired.require(online.size() >= 2, "at least 2 CPUs", "online CPUs: " + online);
        DockerConnection daemon = new DockerConnection(DockerDaemon.fromEnvironment());
        DockerClient docker = daemon.client();
        Map<String, String> labels = RunSession.labels("cpucontrol-test");
        List<String> made = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                String id = docker.createContainerCmd("envbench/base:latest")
                        .withCmd("sh", "-c", SCRIPT)
                        .withLabels(labels)
                        .exec()
                        .getId();
                made.add(id);
                docker.startContainerCmd(id).exec();
            }
            List<Tenant> tenants = List.of(Tenant.of("tenant-1", made.get(0)), Tenant.of("tenant-2", made.get(1)));
            long[] pids = {pid(docker, made.get(0)), pid(docker, made.get(1))};
            String[] allowedBefore = {cpusAllowed(pids[0]), cpusAllowed(pids[1])};

            // a CPU shared with other work on this machine may not give a busy loop 90% of it: release at 60%, pin
            // under 20%
            CpuControlSettings settings = CpuControlSettings.defaults(CpuControlMode.DYNAMIC)
                    .withInterval(Duration.ofSeconds(1))
                    .withRules(60, 3, 20, 3);
            CpuController controller = new CpuController(settings, tenants, online);
            DockerCpusets cpusets = new DockerCpusets(daemon, online);
            Path csv = dir.resolve("timeline.csv");
            CpuAction release;
            CpuAction pin;
            Instant busyAt;
            Instant calmAt;
            try (TenantReadings readings = TenantReadings.ofContainers(daemon, tenants, TenantReadings.DEFAULT_WINDOW);
                    TimelineCsv timeline = new TimelineCsv(csv);
                    CpuControlLoop loop = CpuControlLoop.builder(controller, readings, cpusets)
                            .timeline(timeline)
                            .build()) {
                loop.start();
                String home = controller
                        .layout()
                        .orElseThrow()
                        .home("tenant-1")
                        .orElseThrow()
                        .toString();
                String free = loop.freeCpus().orElseThrow().toString();
                System.out.println("cpu control on " + online + ": homes "
                        + controller.layout().orElseThrow().homes() + ", free " + free);
                for (int i = 0; i < 2; i++) {
                    assertEquals(
                            home,
                            cpusets.current(made.get(i)),
                            "tenant-" + (i + 1) + " pinned, as docker inspect says");
                    assertEquals(home, cpusAllowed(pids[i]), "and as the kernel says (Cpus_allowed_list)");
                }

                Optional<String> veth = VethHostEnd.of(HostRoots.real(), pids[0]);
                System.out.println("tenant-1's veth host end: " + veth.orElse("(none)"));
                assertTrue(
                        veth.isPresent() && Files.isDirectory(HostRoots.real().netDevice(veth.get())),
                        "a bridge container has a veth: " + veth);

                exec(docker, made.get(0), "touch", "/tmp/go");
                busyAt = Instant.now();
                release = await(
                        loop,
                        a -> a.kind() == CpuAction.Kind.RELEASE && a.tenant().equals("tenant-1"),
                        Duration.ofSeconds(15));
                assertEquals(free, cpusets.current(made.get(0)), "released: floats on the CPUs no tenant is pinned to");
                assertEquals(free, cpusAllowed(pids[0]));
                assertEquals(home, cpusets.current(made.get(1)), "the calm tenant stays pinned");

                exec(docker, made.get(0), "touch", "/tmp/stop");
                calmAt = Instant.now();
                pin = await(
                        loop,
                        a -> a.kind() == CpuAction.Kind.PIN
                                && a.tenant().equals("tenant-1")
                                && a.at().isAfter(release.at()),
                        Duration.ofSeconds(15));
                assertEquals(home, cpusets.current(made.get(0)), "pinned again");
                assertEquals(home, cpusAllowed(pids[0]));
                loop.close();
                List<CpuAction> restored = loop.actions().stream()
                        .filter(a -> a.kind() == CpuAction.Kind.RESTORE)
                        .toList();
                assertEquals(2, restored.size(), loop.actions().toString());
                loop.actions().forEach(a -> System.out.println("  " + a.describe()));
            }
            for (int i = 0; i < 2; i++) {
                assertEquals(
                        online.toString(), cpusets.current(made.get(i)), "cpuset put back (it had none: every CPU)");
                assertEquals(allowedBefore[i], cpusAllowed(pids[i]), "Cpus_allowed_list as before");
            }
            List<String> rows = Files.readAllLines(csv);
            assertTrue(rows.stream().anyMatch(r -> r.contains(",tenant-1,release,")), rows.toString());
            assertTrue(rows.stream().anyMatch(r -> r.contains(",tenant-1,restore,")), rows.toString());
            System.out.printf(
                    "reaction: busy -> release %d ms (%s); calm -> pin %d ms (%s)%n",
                    Duration.between(busyAt, release.at()).toMillis(),
                    release.reason(),
                    Duration.between(calmAt, pin.at()).toMillis(),
                    pin.reason());
            // 3 saturated steps: the first may be an interval the loop was busy for only part of, so at least 2 whole
            // ones
            assertTrue(
                    Duration.between(busyAt, release.at()).compareTo(Duration.ofSeconds(2)) >= 0,
                    "not before 3 steps of 1 s");
            assertTrue(
                    release.reason().contains("for 3 steps") && pin.reason().contains("for 3 steps"),
                    release.reason() + " / " + pin.reason());
        } finally {
            for (String id : made) {
                docker.removeContainerCmd(id).withForce(true).exec();
            }
        }
        List<String> left = docker
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(
                        RunSession.LABEL_ENV,
                        "cpucontrol-test",
                        RunSession.LABEL_RUN,
                        labels.get(RunSession.LABEL_RUN)))
                .exec()
                .stream()
                .map(c -> c.getId())
                .toList();
        assertEquals(List.of(), left, "no container left");
    }

    /**
     * Static control with tenant-2 high, floating first on every CPU at its own weight ({@code all}), then at the lowest
     * ({@code spare}): tenant-1 pinned with one busy thread, tenant-2 floating with two. Docker and the kernel carry
     * the weight (inspect's CpuShares, the cgroup's {@code cpu.shares} or {@code cpu.weight}) and close puts it back.
     * Prints the CPU each tenant got under both.
     */
    @Test
    void spareLendsThePinnedCpuAtTheLowestWeightAndPutsItBack() throws Exception {
        DockerRequired.check();
        CpuSet online = CpuSet.online();
        DockerRequired.require(online.size() >= 2, "at least 2 CPUs", "online CPUs: " + online);
        DockerConnection daemon = new DockerConnection(DockerDaemon.fromEnvironment());
        DockerClient docker = daemon.client();
        Map<String, String> labels = RunSession.labels("cpucontrol-test");
        List<String> made = new ArrayList<>();
        try {
            for (String busy : List.of("while :; do :; done", "while :; do :; done & while :; do :; done")) {
                String id = docker.createContainerCmd("envbench/base:latest")
                        .withCmd("sh", "-c", busy)
                        .withLabels(labels)
                        .exec()
                        .getId();
                made.add(id);
                docker.startContainerCmd(id).exec();
            }
            List<Tenant> tenants = List.of(Tenant.of("tenant-1", made.get(0)), Tenant.of("tenant-2", made.get(1)));
            long floatingPid = pid(docker, made.get(1));
            Map<FloatingCpus, Double> pinnedCores = new EnumMap<>(FloatingCpus.class);
            for (FloatingCpus where : List.of(FloatingCpus.ALL, FloatingCpus.SPARE)) {
                CpuControlSettings settings = CpuControlSettings.defaults(CpuControlMode.STATIC)
                        .withHighTenants(Set.of("tenant-2"))
                        .withFloating(where);
                CpuController controller = new CpuController(settings, tenants, online);
                DockerCpusets cpusets = new DockerCpusets(daemon, online);
                try (TenantReadings readings =
                                TenantReadings.ofContainers(daemon, tenants, TenantReadings.DEFAULT_WINDOW);
                        CpuControlLoop loop = CpuControlLoop.builder(controller, readings, cpusets)
                                .build()) {
                    loop.begin();
                    assertEquals(online.toString(), cpusets.current(made.get(1)), where + ": floats on every CPU");
                    assertEquals(online.toString(), cpusAllowed(floatingPid));
                    boolean spare = where == FloatingCpus.SPARE;
                    assertEquals(
                            spare ? DockerCpusets.LOWEST_CPU_SHARES : 0,
                            cpusets.currentShares(made.get(1)),
                            where + ": the floating tenant's CPU shares, as docker inspect says");
                    assertEquals(
                            spare ? "lowest" : "default",
                            weightAsTheKernelSays(floatingPid),
                            where + ": and as its cgroup says");
                    Thread.sleep(1000); // the scheduler settles on the new cpusets
                    readings.read();
                    Thread.sleep(3000);
                    Map<String, Double> cores = new LinkedHashMap<>();
                    readings.read().forEach(r -> cores.put(r.tenant(), r.cpuCores()));
                    pinnedCores.put(where, cores.get("tenant-1"));
                    System.out.printf(
                            Locale.ROOT,
                            "floating %s: tenant-1 (pinned, 1 thread) %.2f CPUs, tenant-2 (floating, 2 threads) %.2f%n",
                            where.yamlName(),
                            cores.get("tenant-1"),
                            cores.get("tenant-2"));
                    loop.close();
                    loop.actions().forEach(a -> System.out.println("  " + a.describe()));
                    if (spare) {
                        assertTrue(
                                loop.actions().stream()
                                        .anyMatch(a -> a.kind() == CpuAction.Kind.RESTORE
                                                && a.action().contains("CPU shares back to 1024")),
                                loop.actions().toString());
                    }
                }
                assertEquals(0 + DockerCpusets.DEFAULT_CPU_SHARES, sharesOrDefault(cpusets, made.get(1)));
                assertEquals("default", weightAsTheKernelSays(floatingPid), where + ": weight put back");
            }
            // what the pinned tenant got is printed, not asserted: the kernel's group scheduling already gives a
            // cgroup with one thread on a CPU most of it against another group's two threads spread over two CPUs
            // (0.92 against 0.99 here), so the gap is small and the machine's other work could hide it
            System.out.println("the pinned tenant's CPUs: " + pinnedCores);
        } finally {
            for (String id : made) {
                docker.removeContainerCmd(id).withForce(true).exec();
            }
        }
    }

    private static int sharesOrDefault(DockerCpusets cpusets, String id) throws IOException {
        int s = cpusets.currentShares(id);
        return s == 0 ? DockerCpusets.DEFAULT_CPU_SHARES : s;
    }

    /** "lowest" or "default", from the process's cpu cgroup: v1's {@code cpu.shares} (2, 1024), v2's {@code cpu.weight} (1, 100). */
    private static String weightAsTheKernelSays(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            Path file;
            if (f[0].equals("0") && f[1].isEmpty()) {
                file = Path.of("/sys/fs/cgroup" + f[2], "cpu.weight");
            } else if (Arrays.asList(f[1].split(",")).contains("cpu")) {
                file = Path.of("/sys/fs/cgroup/" + f[1] + f[2], "cpu.shares");
            } else {
                continue;
            }
            if (!Files.exists(file)) {
                continue;
            }
            String v = Files.readString(file).strip();
            return switch (v) {
                case "1", "2" -> "lowest";
                case "100", "1024" -> "default";
                default -> file + "=" + v;
            };
        }
        throw new IOException("no cpu cgroup with a weight for process " + pid);
    }

    private static CpuAction await(CpuControlLoop loop, Predicate<CpuAction> wanted, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<CpuAction> found = loop.actions().stream().filter(wanted).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such action within " + within.toSeconds() + " s; the timeline: " + loop.actions());
    }

    private static long pid(DockerClient docker, String id) {
        return docker.inspectContainerCmd(id).exec().getState().getPidLong();
    }

    private static String cpusAllowed(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        throw new IOException("no Cpus_allowed_list in /proc/" + pid + "/status");
    }

    private static void exec(DockerClient docker, String id, String... cmd) throws InterruptedException, IOException {
        String exec = docker.execCreateCmd(id)
                .withCmd(cmd)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        try (ResultCallback.Adapter<Frame> done = docker.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>())) {
            assertTrue(done.awaitCompletion(10, TimeUnit.SECONDS), String.join(" ", cmd) + " took over 10 s");
        }
    }
}

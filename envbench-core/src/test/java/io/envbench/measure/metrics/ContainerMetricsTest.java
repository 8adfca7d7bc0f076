package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.BlkioRateDevice;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.Volume;
import io.envbench.base.environment.RunSession;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The container probe on real containers: a CPU burner, an idle one, disk writes, network traffic. */
class ContainerMetricsTest {
    static final String BURN = "while :; do :; done";

    DockerClient docker;
    final List<String> made = new ArrayList<>();
    final List<String> volumes = new ArrayList<>();
    final ContainerProbe probe = new ContainerProbe(new DockerConnection(DockerDaemon.fromEnvironment()));

    @BeforeEach
    void docker() throws Exception {
        DockerRequired.check();
        docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
    }

    @AfterEach
    void removeWhatWasMade() {
        made.forEach(id -> docker.removeContainerCmd(id).withForce(true).exec());
        volumes.forEach(v -> docker.removeVolumeCmd(v).exec());
    }

    /** @return {id, pid} */
    private String[] run(HostConfig hc, String image, String... cmd) {
        String id = docker.createContainerCmd(image)
                .withCmd(cmd)
                .withLabels(RunSession.labels("metrics-test"))
                .withHostConfig(hc)
                .withExposedPorts(ExposedPort.tcp(8080))
                .exec()
                .getId();
        made.add(id);
        docker.startContainerCmd(id).exec();
        return new String[] {
            id, docker.inspectContainerCmd(id).exec().getState().getPidLong().toString()
        };
    }

    private ContainerRates over(String[] c, Duration d) throws InterruptedException {
        ContainerSnapshot a = probe.read(c[0], Long.parseLong(c[1]));
        Thread.sleep(d.toMillis());
        return ContainerRates.between(a, probe.read(c[0], Long.parseLong(c[1])));
    }

    @Test
    void aPinnedBurnerFillsItsCpusetAndAnIdleContainerStaysNearZero() throws Exception {
        String[] burner = run(HostConfig.newHostConfig().withCpusetCpus("0"), "envbench/base:latest", "sh", "-c", BURN);
        String[] idle = run(HostConfig.newHostConfig(), "envbench/base:latest", "sleep", "300");
        Thread.sleep(500);
        ContainerRates b = over(burner, Duration.ofSeconds(2));
        ContainerRates i = over(idle, Duration.ofSeconds(1));
        // on a busy host the burner gets less than its CPU; whatever it gets, one CPU is its whole cpuset
        assertTrue(b.cpuPct() > 30 && b.cpuPct() < 110, "burner one core " + b.cpuPct());
        assertEquals(b.cpuPct(), b.cpuPctOfCpuset(), 0.5, "a cpuset of one CPU: its share is the % of one core");
        assertTrue(i.cpuPct() < 5, "idle " + i.cpuPct());
        assertTrue(probe.readsCgroupFiles());
    }

    @Test
    void aQuotaThrottles() throws Exception {
        String[] c = run(
                HostConfig.newHostConfig().withCpuPeriod(100_000L).withCpuQuota(50_000L),
                "envbench/base:latest",
                "sh",
                "-c",
                BURN);
        Thread.sleep(500);
        ContainerRates r = over(c, Duration.ofSeconds(2));
        assertTrue(r.cpuPct() > 35 && r.cpuPct() < 65, "half a core: " + r.cpuPct());
        assertTrue(r.throttledPeriods() > 5, "throttled periods " + r.throttledPeriods());
        assertTrue(r.throttledMs() > 100, "throttled ms " + r.throttledMs());
    }

    /**
     * Recent kernels count a cgroup's block I/O only while it has a throttle rule (Docker's stats show
     * 0 B too without one), so the container gets a write limit far above anything the disk does.
     */
    @Test
    void writingHundredMebibytesToAVolumeShowsInBlockWrites() throws Exception {
        String vol = docker.createVolumeCmd()
                .withLabels(RunSession.labels("metrics-test"))
                .exec()
                .getName();
        volumes.add(vol);
        String device = Files.getFileStore(Path.of(docker.infoCmd().exec().getDockerRootDir()))
                .name();
        HostConfig hc = HostConfig.newHostConfig()
                .withBinds(new Bind(vol, new Volume("/data")))
                .withBlkioDeviceWriteBps(
                        List.of(new BlkioRateDevice().withPath(device).withRate(1L << 40)));
        String[] c = run(
                hc,
                "envbench/base:latest",
                "sh",
                "-c",
                "sleep 1; dd if=/dev/zero of=/data/f bs=1M count=100 oflag=direct 2>/dev/null || "
                        + "dd if=/dev/zero of=/data/f bs=1M count=100 conv=fsync; echo written; sleep 300");
        ContainerSnapshot before = probe.read(c[0], Long.parseLong(c[1]));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        ContainerSnapshot after;
        do {
            Thread.sleep(500);
            after = probe.read(c[0], Long.parseLong(c[1]));
        } while (after.blkWriteBytes() - before.blkWriteBytes() < (100L << 20) && System.nanoTime() < deadline);
        assertTrue(
                after.blkWriteBytes() - before.blkWriteBytes() >= (100L << 20),
                "block writes " + (after.blkWriteBytes() - before.blkWriteBytes()));
    }

    @Test
    void trafficShowsInTheContainersNetworkNamespace() throws Exception {
        HostConfig hc = HostConfig.newHostConfig()
                .withPortBindings(
                        new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", 18383), ExposedPort.tcp(8080)));
        String[] c = run(hc, "envbench/nginx-static:latest");
        HttpClient http = HttpClient.newHttpClient();
        for (int t = 0; t < 100; t++) {
            try {
                http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:18383/health"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                break;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        ContainerSnapshot a = probe.read(c[0], Long.parseLong(c[1]));
        for (int n = 0; n < 100; n++) {
            http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:18383/page-64k.html"))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        ContainerSnapshot b = probe.read(c[0], Long.parseLong(c[1]));
        assertTrue(b.netTxBytes() - a.netTxBytes() >= 100 * 65536, "tx " + (b.netTxBytes() - a.netTxBytes()));
        assertTrue(b.netRxBytes() - a.netRxBytes() >= 100 * 50, "rx " + (b.netRxBytes() - a.netRxBytes()));
    }

    /** Cgroup files against Docker's own stats API on the same container: CPU within 10 points, memory within 2 MiB. */
    @Test
    void agreesWithTheDockerStatsApi() throws Exception {
        String[] c = run(HostConfig.newHostConfig().withCpusetCpus("0"), "envbench/base:latest", "sh", "-c", BURN);
        DockerStatsProbe api = new DockerStatsProbe(docker);
        CgroupProbe cgroups = new CgroupProbe();
        long pid = Long.parseLong(c[1]);
        ContainerSnapshot api1 = api.read(c[0]);
        ContainerSnapshot cg1 = cgroups.read(pid);
        Thread.sleep(2000);
        ContainerSnapshot api2 = api.read(c[0]);
        ContainerSnapshot cg2 = cgroups.read(pid);
        double apiCpu = ContainerRates.between(api1, api2).cpuPct();
        double cgCpu = ContainerRates.between(cg1, cg2).cpuPct();
        assertTrue(Math.abs(apiCpu - cgCpu) < 10, "API " + apiCpu + " vs cgroup " + cgCpu);
        assertTrue(
                Math.abs(api2.memoryUsageBytes() - cg2.memoryUsageBytes()) < (2L << 20),
                "memory API " + api2.memoryUsageBytes() + " vs cgroup " + cg2.memoryUsageBytes());
        assertEquals(api2.pids(), cg2.pids());
    }
}

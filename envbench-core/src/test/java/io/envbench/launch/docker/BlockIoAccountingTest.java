package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.BlkioRateDevice;
import com.github.dockerjava.api.model.HostConfig;
import io.envbench.base.container.ContainerOptions;
import io.envbench.base.environment.RunSession;
import io.envbench.base.environment.RunningTarget;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.recipe.ContainerTarget;
import io.envbench.measure.metrics.ContainerProbe;
import io.envbench.measure.metrics.ContainerSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every container EnvBench starts carries a 1 TiB/s read and write limit on the disk behind the Docker root, so its
 * block I/O is counted on cgroup v1 (the counters are kept only on a device with a throttle rule), and the rule goes
 * with the container.
 */
class BlockIoAccountingTest {
    DockerLauncher launcher;
    DockerInventory inventory;

    @BeforeEach
    void docker() throws Exception {
        DockerRequired.check();
        launcher = new DockerLauncher(new DockerConnection(DockerDaemon.fromEnvironment()));
        inventory = new DockerInventory(DockerDaemon.fromEnvironment());
    }

    @AfterEach
    void nothingOfThisRunIsLeft() {
        if (inventory != null) {
            assertEquals(
                    List.of(),
                    inventory.containers().stream()
                            .filter(c -> RunSession.runId().equals(c.labels().get(RunSession.LABEL_RUN)))
                            .toList());
        }
    }

    @Test
    void theDockerRootsDiskGetsAHarmlessRuleAndAContainersDirectWritesAreCounted() throws Exception {
        DockerClient docker = launcher.client();
        Path root = Path.of(docker.infoCmd().exec().getDockerRootDir());
        String device = BlockIoAccounting.device(root).orElse(null);
        DockerRequired.require(
                device != null,
                "a local block device under the Docker root",
                root + " is on " + Files.getFileStore(root).name() + ": no rule can be set");
        ContainerOptions o = ContainerOptions.builder()
                .command(List.of(
                        "sh",
                        "-c",
                        // PID 1 ignores SIGTERM without a handler: the trap lets the stop end it at once, not after
                        // its grace period (a trap runs once the wait, not a foreground sleep, is interrupted)
                        "trap 'exit 0' TERM; dd if=/dev/zero of=/f bs=1M count=64 oflag=direct 2>/dev/null && echo written"
                                + " && { sleep 300 & wait; }"))
                .build();
        try (RunningTarget t = launcher.start(
                "blkio-rule",
                new ContainerTarget(
                        "envbench/base:latest", o, 0, 0, Readiness.logLine("written", Duration.ofSeconds(60))))) {
            HostConfig hc = docker.inspectContainerCmd(t.containerId().orElseThrow())
                    .exec()
                    .getHostConfig();
            for (List<BlkioRateDevice> rules : List.of(hc.getBlkioDeviceReadBps(), hc.getBlkioDeviceWriteBps())) {
                assertEquals(1, rules.size(), "one rule on " + device + ": " + rules);
                assertEquals(device, rules.get(0).getPath());
                assertEquals(
                        BlockIoAccounting.UNLIMITED_BYTES_PER_SECOND,
                        rules.get(0).getRate());
            }
            ContainerSnapshot s = new ContainerProbe(new DockerConnection(DockerDaemon.fromEnvironment()))
                    .read(t.containerId().get(), t.pid());
            System.out.println("blkio rule " + device + " 1 TiB/s; container wrote " + s.blkWriteBytes()
                    + " B counted in its cgroup");
            assertTrue(s.blkWriteBytes() >= 64L << 20, "64 MiB written with O_DIRECT, counted: " + s.blkWriteBytes());
        }
    }

    @Test
    void noRuleForFoldersOnNoLocalBlockDevice() {
        assertEquals(Set.of(), BlockIoAccounting.devices(List.of(Path.of("/proc"), Path.of("/no/such/folder"))));
        HostConfig hc = BlockIoAccounting.apply(HostConfig.newHostConfig(), List.of(Path.of("/proc")));
        assertEquals(null, hc.getBlkioDeviceWriteBps());
    }
}

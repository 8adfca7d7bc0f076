package io.envbench.study.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import io.envbench.base.environment.OwnerIdentity;
import io.envbench.base.environment.RunSession;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;
import io.envbench.launch.docker.DockerReaper;
import io.envbench.launch.docker.DockerRequired;
import io.envbench.launch.docker.UserDefinedNetwork;
import io.envbench.study.experiment.ClientPlace;
import org.junit.jupiter.api.Test;

/**
 * On the real engine: a client container reaches its target by name on a labelled user-defined network, and closing
 * it leaves neither; a labelled network (with a container on it) whose owner is gone is removed by the reaper.
 */
class ClientContainerTest {
    private static final String IMAGE = "envbench/base:latest";

    private static boolean networkExists(DockerClient docker, String id) {
        return docker.listNetworksCmd().exec().stream().anyMatch(n -> n.getId().equals(id));
    }

    private static boolean containerExists(DockerClient docker, String id) {
        return docker.listContainersCmd().withShowAll(true).exec().stream()
                .anyMatch(c -> c.getId().equals(id));
    }

    @Test
    void theClientReachesTheTargetByNameAndCloseLeavesNothing() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        String target = docker.createContainerCmd(IMAGE)
                .withCmd("sleep", "300")
                .withLabels(RunSession.labels("client-test"))
                .withName("envbench-client-test-target-" + RunSession.runId())
                .exec()
                .getId();
        try {
            docker.startContainerCmd(target).exec();
            String networkId;
            String clientId;
            try (ClientContainer client = ClientContainer.start(docker, "client-test", target, IMAGE)) {
                clientId = client.id();
                var inspect = docker.inspectContainerCmd(clientId).exec();
                assertEquals("true", inspect.getConfig().getLabels().get(RunSession.LABEL_MANAGED));
                String networkName = inspect.getHostConfig().getNetworkMode();
                var network =
                        docker.inspectNetworkCmd().withNetworkId(networkName).exec();
                networkId = network.getId();
                assertEquals(
                        RunSession.runId(),
                        network.getLabels().get(RunSession.LABEL_RUN),
                        "the network carries the run's labels");
                assertEquals("bridge", network.getDriver());
                assertTrue(
                        network.getContainers().containsKey(target)
                                && network.getContainers().containsKey(clientId),
                        "both on it");
                // the target's name resolves from the client, to the target's address on that network
                String resolved = exec(docker, clientId, "getent", "hosts", ClientPlace.TARGET_ALIAS);
                String targetIp =
                        network.getContainers().get(target).getIpv4Address().replaceFirst("/.*", "");
                System.out.println(
                        "client container: '" + ClientPlace.TARGET_ALIAS + "' resolves to " + resolved.trim());
                assertTrue(resolved.startsWith(targetIp + " "), resolved + " is " + targetIp);
            }
            assertFalse(containerExists(docker, clientId), "client container removed");
            assertFalse(networkExists(docker, networkId), "network removed");
            assertTrue(containerExists(docker, target), "the target is left to its own owner");
        } finally {
            docker.removeContainerCmd(target).withForce(true).exec();
        }
    }

    @Test
    void aDeadOwnersNetworkIsReapedWithTheContainerOnIt() throws Exception {
        DockerRequired.check();
        DockerClient docker = new DockerConnection(DockerDaemon.fromEnvironment()).client();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        OwnerIdentity self = OwnerIdentity.current();
        OwnerIdentity gone = new OwnerIdentity(
                self.hostname(), self.machineId(), self.bootId(), self.pidNamespace(), dead.pid(), 1, -1);
        Map<String, String> labels = new HashMap<>(gone.labels());
        labels.put(RunSession.LABEL_MANAGED, "true");
        labels.put(RunSession.LABEL_RUN, "deadnet1");
        labels.put(RunSession.LABEL_ENV, "reaper-test");
        UserDefinedNetwork network = UserDefinedNetwork.create(docker, "envbench-reaper-test-net-deadnet1", labels);
        String container = docker.createContainerCmd(IMAGE)
                .withCmd("sleep", "300")
                .withLabels(labels)
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode(network.name()))
                .exec()
                .getId();
        try {
            docker.startContainerCmd(container).exec();
            DockerReaper.Sweep sweep = new DockerReaper(docker).sweep();
            List<String> removed = sweep.decisions().stream()
                    .filter(DockerReaper.Decision::removed)
                    .map(DockerReaper.Decision::kind)
                    .toList();
            assertTrue(
                    removed.contains("container") && removed.contains("network"),
                    sweep.decisions().toString());
            assertFalse(containerExists(docker, container));
            assertFalse(networkExists(docker, network.id()));
        } finally {
            if (containerExists(docker, container)) {
                docker.removeContainerCmd(container).withForce(true).exec();
            }
            network.close();
        }
    }

    private static String exec(DockerClient docker, String id, String... command) throws InterruptedException {
        String exec = docker.execCreateCmd(id)
                .withCmd(command)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        StringBuilder out = new StringBuilder();
        docker.execStartCmd(exec)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame f) {
                        out.append(new String(f.getPayload(), StandardCharsets.UTF_8));
                    }
                })
                .awaitCompletion(10, TimeUnit.SECONDS);
        return out.toString();
    }
}

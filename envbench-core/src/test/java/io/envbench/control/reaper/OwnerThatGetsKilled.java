package io.envbench.control.reaper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import io.envbench.base.environment.RunSession;
import io.envbench.base.readiness.Readiness;
import io.envbench.base.recipe.BareMetalTarget;
import io.envbench.host.cgroup.TransientMemoryCgroup;
import io.envbench.host.reaper.ReaperProcess;
import io.envbench.launch.bare.BareMetalLauncher;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.DockerDaemon;

/**
 * The owner {@link ReaperTest} kills: in its own JVM, it makes what a run makes (a labelled container, network
 * and volume on the daemon DOCKER_HOST names, of the image given as the second argument, a bare-metal process in the state folder given as the first argument),
 * and, given a cgroup root as the third argument, a memory cgroup with a process in it), prints one line per thing
 * and "ready", then waits to be killed.
 */
public final class OwnerThatGetsKilled {
    private OwnerThatGetsKilled() {}

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        DockerDaemon daemon = DockerDaemon.fromEnvironment();
        DockerClient docker = new DockerConnection(daemon).client();
        ReaperProcess.ofThisJvm()
                .watchDockerDaemon(
                        daemon.address(),
                        daemon.tlsCertFolder()); // as DockerLauncher.start does before it creates anything
        Map<String, String> labels = RunSession.labels("reaper-owner");
        String network = docker.createNetworkCmd()
                .withName("envbench-reaper-test-" + ProcessHandle.current().pid())
                .withLabels(labels)
                .exec()
                .getId();
        String volume = docker.createVolumeCmd().withLabels(labels).exec().getName();
        String container = docker.createContainerCmd(args.length > 1 ? args[1] : "envbench/base:latest")
                .withCmd("sleep", "300")
                .withLabels(labels)
                .exec()
                .getId();
        docker.startContainerCmd(container).exec();
        System.out.println("container " + container);
        System.out.println("network " + network);
        System.out.println("volume " + volume);
        var target = new BareMetalTarget(
                List.of("sh", "-c", "echo up; exec sleep 300"),
                state,
                Map.of(),
                0,
                Readiness.logLine("up", Duration.ofSeconds(10)));
        var bare = new BareMetalLauncher(state).start("reaper-owner", target);
        System.out.println("bare " + bare.pid());
        if (args.length
                > 2) { // a memory cgroup on the host, made as a bare-metal command load makes it, with a process in it
            var cgroup = TransientMemoryCgroup.create(
                    Path.of(args[2]),
                    "envbench-reaper-test-" + ProcessHandle.current().pid(),
                    64L << 20);
            Process inCgroup = new ProcessBuilder(cgroup.wrap(List.of("sleep", "300"))).start();
            System.out.println("cgroup " + cgroup.dir());
            System.out.println("cgrouped " + inCgroup.pid());
        }
        System.out.println("reaper " + ReaperProcess.ofThisJvm().pid().orElse(-1));
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }
}

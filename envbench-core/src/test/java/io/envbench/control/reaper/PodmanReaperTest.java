package io.envbench.control.reaper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.InternalServerErrorException;
import com.github.dockerjava.api.exception.NotFoundException;
import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.base.units.LocalPorts;
import io.envbench.launch.docker.DockerConnection;
import io.envbench.launch.docker.PodmanEngine;
import io.envbench.launch.docker.PodmanRequired;
import org.junit.jupiter.api.Test;

/**
 * On the real Podman, with a real SIGKILL: an owner JVM that started nginx-static on Podman is killed, and with no
 * new run its reaper removes the container (it watches Podman's socket as it watches Docker's) within 10 s.
 */
class PodmanReaperTest {
    @Test
    void aKilledOwnersPodmanContainerIsSweptByItsReaper() throws Exception {
        PodmanRequired.check();
        DockerClient podman = DockerConnection.open(PodmanEngine.daemon());
        int port = LocalPorts.pickFree();
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                PodmanOwnerThatGetsKilled.class.getName(),
                TargetRecipeTest.TARGETS.toString(),
                Integer.toString(port));
        Process owner = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        Map<String, String> made = new HashMap<>();
        List<String> said = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(owner.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            for (String line;
                    System.nanoTime() < deadline && (line = out.readLine()) != null && !line.equals("ready"); ) {
                said.add(line);
                String[] f = line.split(" ", 2);
                if (f.length == 2 && List.of("container", "reaper").contains(f[0])) {
                    made.put(f[0], f[1]);
                }
            }
            assertTrue(
                    made.size() == 2, "the owner started nginx on Podman and its reaper: " + String.join("\n", said));
            String container = made.get("container");
            assertTrue(Long.parseLong(made.get("reaper")) > 0, "a reaper runs beside the owner");
            assertTrue(exists(podman, container));

            long killed = System.nanoTime();
            owner.destroyForcibly(); // SIGKILL: no shutdown hook runs
            owner.waitFor(10, TimeUnit.SECONDS);
            long gone = -1;
            while (System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(20)) {
                if (!exists(podman, container)) {
                    gone = (System.nanoTime() - killed) / 1_000_000;
                    break;
                }
                Thread.sleep(50);
            }
            System.out.println("reaper (podman): owner SIGKILLed -> container gone in "
                    + (gone < 0 ? "(not within 20 s)" : gone + " ms"));
            assertTrue(gone >= 0 && gone < 10_000, "the container is gone within 10 s: " + gone + " ms");
            LocalPorts.checkFree("port", port);
        } finally {
            owner.destroyForcibly();
            if (made.containsKey("container") && exists(podman, made.get("container"))) {
                podman.removeContainerCmd(made.get("container")).withForce(true).exec();
            }
            podman.close();
        }
    }

    private static boolean exists(DockerClient podman, String id) {
        try {
            podman.inspectContainerCmd(id).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        } catch (InternalServerErrorException e) { // Podman, while it removes it: 500 "no such container"
            if (String.valueOf(e.getMessage()).contains("no such container")) {
                return false;
            }
            throw e;
        }
    }
}

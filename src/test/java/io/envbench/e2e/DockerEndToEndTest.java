package io.envbench.e2e;

import java.nio.file.Path;

import io.envbench.launch.docker.DockerInventory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What every end-to-end test on the real engine shares: a temporary folder, the labelled Docker resources (a failure
 * under CI=true without Docker, a skip elsewhere), and the check after each test that nothing labelled is left, which
 * holds only while no other class uses them: every subclass holds {@link SharedResources#LABELLED_DOCKER}, and is
 * {@code @Isolated} too unless it says why it may run beside a class without Docker ({@link BesideOthers}).
 */
@ResourceLock(SharedResources.LABELLED_DOCKER)
abstract class DockerEndToEndTest {
    @TempDir
    Path dir;

    DockerInventory docker;

    @BeforeEach
    void dockerRuns() {
        docker = Jmeter.docker();
    }

    @AfterEach
    void nothingLabelledIsLeft() {
        Jmeter.assertNothingLabelledLeft(docker);
    }
}

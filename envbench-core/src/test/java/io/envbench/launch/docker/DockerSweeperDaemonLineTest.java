package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The reaper reaches a daemon as its owner did: a TLS daemon with the owner's certificate folder (pure logic). */
class DockerSweeperDaemonLineTest {
    @Test
    void aTlsDaemonKeepsItsCertificateFolderAndAnOlderLineIsTheAddressAlone() {
        DockerDaemon tls = DockerSweeper.daemonOf("tcp://127.0.0.2:2376\t/certs");
        assertEquals("tcp://127.0.0.2:2376", tls.address());
        assertEquals(Optional.of(Path.of("/certs")), tls.tlsCertFolder());
        assertEquals(
                Optional.empty(),
                DockerSweeper.daemonOf("unix:///var/run/docker.sock\t").tlsCertFolder());
        assertEquals(
                "unix:///var/run/docker.sock",
                DockerSweeper.daemonOf("unix:///var/run/docker.sock").address());
    }
}

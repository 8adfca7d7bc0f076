package io.envbench.launch.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which daemon the settings name, and the settings refused before any connection (no Docker needed, nothing is contacted). */
class DockerDaemonTest {
    static final DockerDaemon.Settings JMETER = DockerDaemon.Settings.JMETER_PROPERTIES;
    static final Path HOME = Path.of("/home/someone");

    static DockerDaemon configured(String host, String verify, String certs, Map<String, String> env) {
        return DockerDaemon.configured(JMETER, host, verify, certs, env, HOME);
    }

    @Test
    void theDockerCliVariablesAreTheFallback() {
        Map<String, String> env =
                Map.of("DOCKER_HOST", "tcp://10.1.2.3:2376", "DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", "/certs");
        DockerDaemon d = configured("", " ", "", env);
        assertEquals("tcp://10.1.2.3:2376", d.address());
        assertEquals(Optional.of(Path.of("/certs")), d.tlsCertFolder());
        assertEquals(
                new DockerDaemon.Settings("DOCKER_HOST", "DOCKER_TLS_VERIFY", "DOCKER_CERT_PATH"),
                d.sources(),
                "messages name the variable the value came from");
    }

    @Test
    void whatTheUserSetWinsOverTheVariables() {
        Map<String, String> env =
                Map.of("DOCKER_HOST", "tcp://10.1.2.3:2376", "DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", "/certs");
        DockerDaemon d = configured("tcp://127.0.0.1:2376", "false", "/mine", env);
        assertEquals("tcp://127.0.0.1:2376", d.address());
        assertFalse(d.usesTls());
        assertEquals(JMETER, d.sources());
        DockerDaemon mine = configured("tcp://127.0.0.1:2376", "TRUE", "/mine", env);
        assertEquals(Optional.of(Path.of("/mine")), mine.tlsCertFolder());
    }

    @Test
    void anyValueOfDockerTlsVerifyTurnsTlsOnAsForTheDockerCliAndTheCertFolderDefaultsToDotDocker() {
        DockerDaemon d = configured("tcp://127.0.0.1:2376", "", "", Map.of("DOCKER_TLS_VERIFY", "yes"));
        assertEquals(Optional.of(HOME.resolve(".docker")), d.tlsCertFolder());
        assertFalse(configured("tcp://127.0.0.1:2376", "", "", Map.of()).usesTls());
    }

    @Test
    void theLocalSocketIsTheDefaultAndIgnoresTls() {
        DockerDaemon d = configured("", "true", "/certs", Map.of());
        assertEquals(DockerDaemon.LOCAL_SOCKET, d.address());
        assertFalse(d.usesTls(), "TLS is for tcp:// only, as the docker CLI does");
        assertTrue(d.isLocalSocket() && d.onThisHost());
        assertEquals("127.0.0.1", d.publishAddress());
        d.check();
    }

    @Test
    void portsArePublishedOnTheAddressTheDaemonIsReachedAt() {
        DockerDaemon d = configured("tcp://127.0.0.2:2376", "false", "", Map.of());
        assertEquals("127.0.0.2", d.publishAddress());
        assertTrue(d.onThisHost());
        DockerDaemon remote = configured("tcp://198.51.100.7:2376", "true", "/certs", Map.of());
        assertEquals("198.51.100.7", remote.publishAddress());
        assertFalse(remote.onThisHost());
    }

    @Test
    void aTlsVerifyThatIsNeitherTrueNorFalseIsRefused() {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> configured("", "yes please", "", Map.of()));
        assertEquals("envbench.docker.tls.verify", e.field());
        assertTrue(e.getMessage().contains("'yes please' is neither true nor false"), e.getMessage());
    }

    @Test
    void plainTcpToAnotherHostIsRefusedBeforeAnyConnection() {
        DockerDaemon d = configured("tcp://198.51.100.7:2375", "", "", Map.of());
        InvalidSettingException e = assertThrows(InvalidSettingException.class, d::check);
        assertEquals("envbench.docker.host", e.field());
        assertTrue(e.getMessage().contains("unencrypted and unauthenticated"), e.getMessage());
        assertTrue(
                e.getMessage().contains("envbench.docker.tls.verify=true and envbench.docker.cert.path=FOLDER"),
                e.getMessage());
        assertTrue(e.getMessage().contains("(or DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH=FOLDER)"), e.getMessage());
        configured("tcp://127.0.0.1:2375", "", "", Map.of())
                .check(); // loopback: allowed (a tunnel, this host), with a warning
        configured("tcp://localhost:2375", "", "", Map.of()).check();
    }

    @Test
    void addressesEnvBenchCannotUseAreNamed() {
        for (String bad : new String[] {"ssh://me@host", "http://127.0.0.1:2375", "tcp://127.0.0.1", "tcp://:2376"}) {
            InvalidSettingException e = assertThrows(
                    InvalidSettingException.class,
                    () -> configured(bad, "", "", Map.of()).check(),
                    bad);
            assertEquals("envbench.docker.host", e.field());
            assertTrue(e.getMessage().contains("tcp://HOST:2376"), e.getMessage());
        }
    }

    @Test
    void theCertificateFolderMustHoldTheThreeFiles(@TempDir Path dir) throws Exception {
        InvalidSettingException missing = assertThrows(
                InvalidSettingException.class,
                () -> configured(
                                "tcp://127.0.0.1:2376",
                                "true",
                                dir.resolve("nowhere").toString(),
                                Map.of())
                        .check());
        assertEquals("envbench.docker.cert.path", missing.field());
        assertTrue(missing.getMessage().contains("is not a folder"), missing.getMessage());
        Files.writeString(dir.resolve("ca.pem"), "x");
        InvalidSettingException noCert = assertThrows(
                InvalidSettingException.class,
                () -> configured(
                                "tcp://127.0.0.1:2376",
                                "",
                                "",
                                Map.of("DOCKER_TLS_VERIFY", "1", "DOCKER_CERT_PATH", dir.toString()))
                        .check());
        assertEquals("DOCKER_CERT_PATH", noCert.field(), "the variable the folder came from");
        assertTrue(noCert.getMessage().contains("has no readable cert.pem"), noCert.getMessage());
        Files.writeString(dir.resolve("cert.pem"), "x");
        Files.writeString(dir.resolve("key.pem"), "x");
        configured("tcp://127.0.0.1:2376", "true", dir.toString(), Map.of()).check();
    }
}

package io.envbench.launch.dockerdaemon;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.base.environment.RunSession;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.host.hostsettings.HostSettingsJournal;
import io.envbench.host.hostsettings.ProcessPauser;
import io.envbench.launch.docker.DockerDaemon;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon settings change on a temporary folder standing for {@code /etc/docker}, with a daemon that only records
 * its restarts: the file kept byte for byte, an absent file put back as absent, malformed JSON and flag/file conflicts
 * refused with nothing changed, no change without the permission, and every change written down before it is made.
 */
class DaemonSettingsChangeTest {
    static final DockerDaemon LOCAL = DockerDaemon.of(DockerDaemon.LOCAL_SOCKET, Optional.empty());
    static final DaemonSettings NO_PROXY = new DaemonSettings(false);

    @TempDir
    Path dir;

    Path etcDocker;
    Path config;
    Path journals;
    FakeDaemon dockerd;

    @BeforeEach
    void host() throws IOException {
        etcDocker = dir.resolve("etc-docker");
        Files.createDirectories(etcDocker);
        config = etcDocker.resolve("daemon.json");
        journals = dir.resolve("journals");
        dockerd = new FakeDaemon(config, journals, dir.resolve("route_localnet"));
    }

    DaemonSettingsChange open(RestartPermission permission) throws IOException {
        return DaemonSettingsChange.open(LOCAL, config, journals, dockerd, permission);
    }

    @Test
    void anAbsentFileIsMadeForTheChangeAndIsAbsentAgainAfter() throws IOException {
        DaemonSettingsChange.Applied applied;
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            assertEquals(DaemonSettings.DOCKER_DEFAULTS, change.effective(), "no file, no flag: Docker's defaults");
            applied = change.apply(NO_PROXY);
            assertTrue(applied.restarted());
            assertEquals(new DaemonSettings(true), applied.before());
            assertEquals(NO_PROXY, applied.now());
            assertEquals("userland-proxy=false", applied.now().describe());
            JsonNode json = new ObjectMapper().readTree(config.toFile());
            assertEquals(false, json.get("userland-proxy").booleanValue());
            assertEquals(1, json.size());
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
            assertEquals(NO_PROXY, change.effective());
            assertEquals(1, dockerd.restarts.size());
            assertEquals(
                    Optional.of(Files.readString(config)),
                    dockerd.restarts.get(0).config(),
                    "restarted after the file was written");
            assertEquals(
                    "1\n",
                    Files.readString(dockerd.routeLocalnet),
                    "dockerd without its proxy routes 127.0.0.1 on its bridge");
        }
        assertEquals("0\n", Files.readString(dockerd.routeLocalnet), "what dockerd changed by itself is put back too");
        assertFalse(Files.exists(config), "absent before, absent after");
        assertEquals(2, dockerd.restarts.size(), "restarted again to read its old settings");
        assertEquals(
                Optional.empty(),
                dockerd.restarts.get(1).config(),
                "the second restart came after the file was removed");
        assertEquals(FakeDaemon.HOW, dockerd.restarts.get(1).howItRuns(), "restarted as it ran before");
        assertEquals("", FakeDaemon.journals(journals), "the journal is gone once all is put back");
    }

    @Test
    void anExistingFileKeepsItsOtherKeysAndModeAndIsPutBackByteForByte() throws IOException {
        byte[] before = "{\"debug\":true,  \"log-level\" : \"warn\",\n\t\"registry-mirrors\":[\"https://m.example\"]}\n"
                .getBytes(StandardCharsets.UTF_8);
        Files.write(config, before);
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            change.apply(NO_PROXY);
            JsonNode json = new ObjectMapper().readTree(config.toFile());
            assertEquals(
                    List.of("debug", "log-level", "registry-mirrors", "userland-proxy"),
                    iterable(json.fieldNames()),
                    "every other key kept, in its order");
            assertEquals("warn", json.get("log-level").asText());
            assertEquals(
                    "https://m.example", json.get("registry-mirrors").get(0).asText());
            assertEquals(
                    "rw-------",
                    PosixFilePermissions.toString(Files.getPosixFilePermissions(config)),
                    "the file's mode kept");
            try (var files = Files.list(etcDocker)) {
                assertEquals(List.of(config), files.toList(), "no temporary file left beside it");
            }
        }
        assertArrayEquals(before, Files.readAllBytes(config), "byte for byte, spacing and all");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(config)));
    }

    @Test
    void malformedJsonIsRefusedNamingTheFileAndNothingIsWrittenOrRestarted() throws IOException {
        Files.writeString(config, "{\"debug\": true,\n  userland-proxy: false}\n");
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            DaemonConfigException e = assertThrows(DaemonConfigException.class, () -> change.apply(NO_PROXY));
            assertTrue(e.getMessage().startsWith(config + " is not valid JSON at line 2, column"), e.getMessage());
            assertTrue(
                    e.getMessage().contains("correct it (or remove it to use Docker's defaults); nothing was changed"),
                    e.getMessage());
        }
        assertEquals("{\"debug\": true,\n  userland-proxy: false}\n", Files.readString(config));
        assertEquals(List.of(), dockerd.restarts);
        assertEquals("", FakeDaemon.journals(journals));
        Files.writeString(config, "{\"userland-proxy\": \"no\"}");
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            DaemonConfigException e = assertThrows(DaemonConfigException.class, change::effective);
            assertEquals(
                    config
                            + ": \"userland-proxy\" is \"no\", not true or false; dockerd refuses it too: write true or false; "
                            + "nothing was changed",
                    e.getMessage());
        }
    }

    @Test
    void aFlagWinsOverTheFileAndAFlagTheFileAlsoSetsIsCalledOut() throws IOException {
        dockerd.argv = List.of("/usr/bin/dockerd", "--userland-proxy=false");
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            assertEquals(NO_PROXY, change.effective(), "the flag, no file");
            DaemonConfigException e =
                    assertThrows(DaemonConfigException.class, () -> change.apply(new DaemonSettings(true)));
            assertTrue(
                    e.getMessage()
                            .startsWith("dockerd's command line sets --userland-proxy=false: EnvBench changes " + config
                                    + ", and dockerd refuses to start with a setting given both ways"),
                    e.getMessage());
            assertEquals(NO_PROXY, change.apply(NO_PROXY).now(), "what the flag says already: nothing to change");
            Files.writeString(config, "{\"userland-proxy\": false}");
            e = assertThrows(DaemonConfigException.class, change::effective);
            assertEquals(
                    config + " sets \"userland-proxy\" and dockerd's command line sets --userland-proxy=false: dockerd "
                            + "refuses to start when a setting is given both ways; remove one of them",
                    e.getMessage());
        }
        assertEquals(List.of(), dockerd.restarts);
        dockerd.argv =
                List.of("dockerd", "--config-file", dir.resolve("other.json").toString());
        Files.writeString(dir.resolve("other.json"), "{\"userland-proxy\": false}");
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            assertEquals(NO_PROXY, change.effective(), "dockerd's --config-file is the file it reads");
        }
    }

    @Test
    void withoutPermissionADifferentSettingIsRefusedSayingHowToAllowIt() throws IOException {
        try (DaemonSettingsChange change = open(RestartPermission.REFUSED)) {
            assertFalse(change.apply(new DaemonSettings(true)).restarted(), "the settings it has need no restart");
            InvalidSettingException e = assertThrows(InvalidSettingException.class, () -> change.apply(NO_PROXY));
            assertEquals("userland-proxy", e.field());
            assertTrue(
                    e.getMessage()
                            .contains(
                                    "userland-proxy=false needs a restart of the daemon, which stops every container it "
                                            + "runs. Allow it with --allow-docker-restart"),
                    e.getMessage());
        }
        assertFalse(Files.exists(config));
        assertEquals(List.of(), dockerd.restarts);
        assertEquals("", FakeDaemon.journals(journals));
    }

    @Test
    void aDaemonThatMayNotBeRestartedIsRefusedBeforeAnythingIsWrittenDown() throws IOException {
        dockerd.othersRunning = "a restart would stop 1 running container(s): web (nginx), not EnvBench's";
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            IOException e = assertThrows(IOException.class, () -> change.apply(NO_PROXY));
            assertEquals(dockerd.othersRunning, e.getMessage());
        }
        assertFalse(Files.exists(config));
        assertEquals(List.of(), dockerd.restarts);
        assertEquals("", FakeDaemon.journals(journals));
    }

    @Test
    void aRemoteDaemonIsRefusedBeforeAnything() {
        DockerDaemon remote = DockerDaemon.of("tcp://10.0.0.5:2376", Optional.of(dir));
        DaemonConfigException e = assertThrows(
                DaemonConfigException.class,
                () -> DaemonSettingsChange.open(remote, config, journals, dockerd, RestartPermission.GRANTED));
        assertTrue(
                e.getMessage()
                        .startsWith("the Docker daemon tcp://10.0.0.5:2376 is not reached through a local unix socket"),
                e.getMessage());
    }

    @Test
    void everythingIsWrittenDownBeforeTheFileChangesAndPutBackWhenTheRestartFails() throws IOException {
        byte[] before = "{\"debug\":true}".getBytes(StandardCharsets.UTF_8);
        Files.write(config, before);
        // the file cannot be replaced: its temporary file's place is taken by a folder
        Path blocker = etcDocker.resolve(".daemon.json.envbench-partial");
        Files.createDirectories(blocker.resolve("x"));
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            IOException e = assertThrows(IOException.class, () -> change.apply(NO_PROXY));
            assertTrue(e.getMessage().startsWith("cannot write " + config), e.getMessage());
            String journal = FakeDaemon.journals(journals);
            assertTrue(
                    journal.contains("restarted\t" + DockerDaemon.LOCAL_SOCKET + "\t"
                            + FakeDaemon.HOW.replace("\\", "\\\\") + "\n"),
                    journal);
            assertTrue(
                    journal.contains("content\t" + config + "\trw-r--r--\teyJkZWJ1ZyI6dHJ1ZX0=\n"),
                    "the old bytes were written down before the write was tried: " + journal);
            assertTrue(
                    journal.indexOf("restarted\t") < journal.indexOf("content\t"), "the restart first: put back last");
        }
        assertArrayEquals(before, Files.readAllBytes(config));
        assertEquals(
                1,
                dockerd.restarts.size(),
                "put back restarts the daemon even so: one restart too many is harmless, one "
                        + "too few would leave it on the changed settings");
        assertEquals("", FakeDaemon.journals(journals));
        Files.delete(blocker.resolve("x"));
        Files.delete(blocker);
        dockerd.restarts.clear();

        dockerd.failNextRestart = "dockerd exited with 1 right after its start";
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            IOException e = assertThrows(IOException.class, () -> change.apply(NO_PROXY));
            assertEquals("dockerd exited with 1 right after its start", e.getMessage());
        } // close puts back, also after the failure
        assertArrayEquals(before, Files.readAllBytes(config));
        assertEquals(2, dockerd.restarts.size(), "the failed restart, then the one that reads the old file again");
        assertEquals(Optional.of("{\"debug\":true}"), dockerd.restarts.get(1).config());
        assertEquals("", FakeDaemon.journals(journals));
    }

    @Test
    void aSecondChangeOfTheSameDaemonIsRefusedWhileTheFirstHoldsIt() throws IOException {
        try (DaemonSettingsChange first = open(RestartPermission.GRANTED);
                DaemonSettingsChange second = open(RestartPermission.GRANTED)) {
            first.apply(NO_PROXY);
            config.toFile().delete(); // as if the first's change were not there, so that the second would change it
            IOException e = assertThrows(IOException.class, () -> second.apply(NO_PROXY));
            assertTrue(
                    e.getMessage().startsWith("another EnvBench run has changed the settings of the Docker daemon"),
                    e.getMessage());
        }
    }

    @Test
    void theSweepOfADeadOwnersJournalPutsTheFileBackAndRestartsTheDaemonAsItRan() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(5, TimeUnit.SECONDS);
        String written;
        try (DaemonSettingsChange change = open(RestartPermission.GRANTED)) {
            change.apply(NO_PROXY);
            written = FakeDaemon.journals(journals);
        }
        // what a killed owner leaves: its journal (its PID now gone) and the changed file
        Path leftovers = dir.resolve("leftovers");
        Files.createDirectories(leftovers);
        String mine = "io.envbench.owner-pid=" + ProcessHandle.current().pid();
        assertTrue(written.contains(mine + "\t") || written.contains(mine + "\n"), written);
        String run = "io.envbench.run=" + RunSession.runId();
        Files.writeString(
                leftovers.resolve("hostsettings-dead.journal"),
                written.replace(mine, "io.envbench.owner-pid=" + gone.pid()).replace(run, "io.envbench.run=deadbeef"));
        Files.writeString(config, "{\n  \"userland-proxy\" : false\n}\n");
        Files.writeString(dockerd.routeLocalnet, "1\n");
        int restartsBefore = dockerd.restarts.size();
        HostSettingsJournal.Sweep sweep = HostSettingsJournal.sweepLeftovers(leftovers, ProcessPauser.SIGNALS, dockerd);
        assertEquals(1, sweep.restored().size(), sweep.toString());
        assertEquals(3, sweep.restored().get(0).restored().size(), sweep.toString());
        assertFalse(Files.exists(config), "absent again");
        assertEquals("0\n", Files.readString(dockerd.routeLocalnet), "put back after the restart");
        assertEquals(restartsBefore + 1, dockerd.restarts.size());
        assertEquals(
                FakeDaemon.HOW, dockerd.restarts.get(restartsBefore).howItRuns(), "started as the journal says it ran");
        assertEquals(Optional.empty(), dockerd.restarts.get(restartsBefore).config(), "after the file was put back");
    }

    private static List<String> iterable(Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}

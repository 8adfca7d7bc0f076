package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.envbench.measure.engines.RemoteEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load.engines and load.rmiKeystore in experiment files: read, written back, and every mistake named with its line. */
class ExperimentEnginesTest {
    static final Path TARGETS = ExperimentFileTest.TARGETS;

    @TempDir
    Path dir;

    private String file(String loadExtra) {
        return """
                name: remote
                target: nginx-static
                environments:
                  - name: bare
                    placement: bare
                load:
                  http:
                    path: /page-4k.html
                    durationSeconds: 5
                """ + loadExtra;
    }

    @Test
    void enginesAndTheKeystoreAreReadRelativeToTheFileAndWrittenBack() throws Exception {
        Files.writeString(dir.resolve("rmi_keystore.jks"), "not read here");
        Path f = dir.resolve("e.yaml");
        Experiment e = ExperimentFile.parse(
                file("  engines: [127.0.0.1:24101, \"127.0.0.1:24102\"]\n  rmiKeystore: rmi_keystore.jks\n"),
                f,
                TARGETS);
        assertEquals(
                List.of(new RemoteEngine("127.0.0.1", 24101), new RemoteEngine("127.0.0.1", 24102)),
                e.load().engines().engines());
        assertEquals(
                dir.resolve("rmi_keystore.jks"),
                e.load().engines().rmiKeystore().orElseThrow());
        assertEquals(e.load().engines(), e.quick().load().engines(), "--quick keeps the engines");
        Experiment again = ExperimentFile.parse(e.toYaml(), f, TARGETS);
        assertEquals(e.load(), again.load());
        assertTrue(
                ExperimentFile.parse(file(""), f, TARGETS).load().engines().none(),
                "no engines: the runner's own JMeter");
    }

    @Test
    void mistakesNameTheFieldAndTheFix() throws Exception {
        Files.writeString(dir.resolve("k.jks"), "x");
        Path f = dir.resolve("e.yaml");
        assertMessage(f, "  engines: [127.0.0.1:1099]\n", "load.rmiKeystore: is missing", "keytool -genkeypair");
        assertMessage(
                f,
                "  engines: [127.0.0.1:70000]\n  rmiKeystore: k.jks\n",
                "line 10: load.engines[0]",
                "not a TCP port");
        assertMessage(
                f,
                "  engines: 127.0.0.1:1099\n  rmiKeystore: k.jks\n",
                "line 10: load.engines",
                "a list of JMeter engines");
        assertMessage(f, "  engines: []\n  rmiKeystore: k.jks\n", "load.engines", "is empty");
        assertMessage(f, "  engines: [h:1, h:1]\n  rmiKeystore: k.jks\n", "load.engines[1]", "listed twice");
        assertMessage(f, "  engines: [h:1]\n  rmiKeystore: nope.jks\n", "line 11: load.rmiKeystore", "does not exist");
        assertMessage(f, "  rmiKeystore: k.jks\n", "load.rmiKeystore", "only applies with engines");
    }

    @Test
    void aPlanOnEnginesMustSendTheEnginesMetrics() throws Exception {
        Files.writeString(dir.resolve("k.jks"), "x");
        Files.writeString(dir.resolve("plain.jmx"), "<jmeterTestPlan/>");
        String yaml = """
                name: remote
                target: nginx-static
                environments:
                  - name: bare
                    placement: bare
                load:
                  plan: plain.jmx
                  durationSeconds: 5
                  engines: [h:1]
                  rmiKeystore: k.jks
                """;
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.parse(yaml, dir.resolve("p.yaml"), TARGETS));
        assertTrue(
                e.getMessage().contains("load.plan") && e.getMessage().contains("EnvBench Engine Metrics"),
                e.getMessage());
        Path builtin =
                Path.of("..", "testplans", "http-load.jmx").toAbsolutePath().normalize();
        assertTrue(LoadPlan.sendsEngineMetrics(builtin), "the built-in load's plan sends them");
    }

    private void assertMessage(Path f, String loadExtra, String... parts) {
        ExperimentException e =
                assertThrows(ExperimentException.class, () -> ExperimentFile.parse(file(loadExtra), f, TARGETS));
        for (String p : parts) {
            assertTrue(e.getMessage().contains(p), "'" + p + "' in: " + e.getMessage());
        }
    }
}

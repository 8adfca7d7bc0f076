package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.launch.dockerdaemon.DaemonRequest;
import org.junit.jupiter.api.Test;

/** The command load of an experiment file (study 003's (docs/studies.md#study-003) bonnie++): read, written back, and
 * refused field by field.
 */
class CommandLoadFileTest {
    static final Path TARGETS = ExperimentFileTest.TARGETS;
    static final Path BONNIE = Path.of("..", "testplans", "experiments", "seed-003-bonnie.yaml")
            .toAbsolutePath()
            .normalize();

    @Test
    void theStudysFileReadsAsACommandLoadInFivePlaces() throws Exception {
        Experiment e = ExperimentFile.read(BONNIE, TARGETS);
        assertEquals(List.of("host", "cow", "cow-vfs", "bind", "volume", "tmpfs"), e.environmentNames());
        assertEquals("host", e.baseline());
        CommandLoad c = e.load().command().orElseThrow();
        assertEquals(List.of("./bonnie.sh", "-s", "2048", "-r", "1024", "-n", "16", "-f"), c.command());
        assertEquals(CommandOutput.BONNIE_CSV, c.output());
        assertEquals(1L << 30, c.bareMemoryBytes().getAsLong());
        assertTrue(e.load().http().isEmpty() && e.load().plan().isEmpty());
        assertEquals(
                EnvironmentDefinition.Placement.BARE,
                e.environment("host").definition().placement());
        assertEquals(
                3L << 30,
                e.environment("tmpfs").definition().options().memoryBytes().getAsLong());
        // --quick cannot shorten a program: the file's arguments set its length
        assertEquals(e.load(), e.quick().load());
    }

    @Test
    void writtenBackItReadsTheSame() throws Exception {
        Experiment first = ExperimentFile.read(BONNIE, TARGETS);
        String yaml = first.toYaml();
        for (String part : List.of("command:", "run: ./bonnie.sh -s 2048", "output: bonnie++", "bareMemory: 1g")) {
            assertTrue(yaml.contains(part), part + " in\n" + yaml);
        }
        Experiment second = ExperimentFile.parse(yaml, BONNIE, TARGETS);
        assertEquals(first.load(), second.load());
        assertEquals(yaml, second.toYaml());
    }

    /**
     * The vfs row asks for the storage driver alone (the proxy stays as the daemon has it), is written back, and a
     * driver dockerd does not know, or a dockerDaemon that names nothing, is refused at its line with the choices.
     */
    @Test
    void theVfsRowAsksForItsStorageDriverAndABadOneIsNamed() throws Exception {
        Experiment e = ExperimentFile.read(BONNIE, TARGETS);
        assertEquals(
                Optional.of(DaemonRequest.storageDriver("vfs")),
                e.environment("cow-vfs").dockerDaemon());
        assertTrue(e.environment("cow").dockerDaemon().isEmpty());
        assertTrue(e.toYaml().contains("storageDriver: vfs"), e.toYaml());
        String yaml = java.nio.file.Files.readString(BONNIE);
        ExperimentException bad = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(yaml.replace("storageDriver: vfs", "storageDriver: ext4"), BONNIE, TARGETS));
        assertTrue(
                bad.getMessage().contains("storageDriver")
                        && bad.getMessage().contains("'ext4' is no storage driver of dockerd")
                        && bad.getMessage().contains("vfs"),
                bad.getMessage());
        ExperimentException none = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(yaml.replace("{ storageDriver: vfs }", "{}"), BONNIE, TARGETS));
        assertTrue(none.getMessage().contains("names no setting"), none.getMessage());
    }

    private static String file(String load) {
        return "name: c\ntarget: bonnie\nenvironments:\n  - { name: host, placement: bare }\nload:\n" + load;
    }

    @Test
    void repetitionsAutoIsRefusedForACommandWhichHasNoJMeterFigures() {
        ExperimentException e = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        "repetitions: auto\n"
                                + file(
                                        "  command:\n    run: ./bonnie.sh\n    output: bonnie++\n    durationSeconds: 10\n"),
                        Path.of("auto.yaml"),
                        TARGETS));
        assertEquals("repetitions", e.fieldPath(), e.getMessage());
        assertTrue(e.getMessage().contains("a command load has none; give a number of repetitions"), e.getMessage());
    }

    @Test
    void mistakesNameTheFieldAndTheFix() {
        List.of(
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    durationSeconds: 10\n",
                            "load.command",
                            "has no output:"
                        },
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    output: fio\n    durationSeconds: 10\n",
                            "load.command.output",
                            "'fio' is not an output EnvBench reads; use bonnie++"
                        },
                        new String[] {
                            "  command:\n    output: bonnie++\n    durationSeconds: 10\n", "load.command", "has no run:"
                        },
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    output: bonnie++\n",
                            "load.command",
                            "durationSeconds"
                        },
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    output: bonnie++\n    durationSeconds: 10\n    bareMemory: lots\n",
                            "load.command.bareMemory",
                            "is not a size"
                        },
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    output: bonnie++\n    durationSeconds: 10\n  http:\n    path: /\n",
                            "load.http",
                            "cannot stand beside command:"
                        },
                        new String[] {
                            "  command:\n    run: ./bonnie.sh\n    output: bonnie++\n  durationSeconds: 10\n",
                            "load.durationSeconds",
                            "move it to load.command.durationSeconds"
                        })
                .forEach(c -> {
                    String m = assertThrows(
                                    ExperimentException.class,
                                    () -> ExperimentFile.parse(file(c[0]), Path.of("c.yaml"), TARGETS))
                            .getMessage();
                    assertTrue(m.contains(c[1]) && m.contains(c[2]), "expected " + c[1] + " and " + c[2] + " in: " + m);
                });
    }

    static final Path POSTGRES = Path.of("..", "testplans", "experiments", "seed-002-postgres.yaml")
            .toAbsolutePath()
            .normalize();

    @Test
    void study002PlacesItsClientInFourPlacesAndWritesThemBack() throws Exception {
        Experiment e = ExperimentFile.read(POSTGRES, TARGETS);
        assertEquals(List.of("host", "same-container", "other-container", "published-port"), e.environmentNames());
        assertEquals(
                List.of(ClientPlace.INSIDE, ClientPlace.INSIDE, ClientPlace.CONTAINER, ClientPlace.HOST),
                e.environments().stream().map(EnvironmentPlan::client).toList());
        assertEquals(CommandOutput.PSQL_TIME, e.load().command().orElseThrow().output());
        String yaml = e.toYaml();
        assertTrue(
                yaml.contains("client: container")
                        && yaml.contains("client: host")
                        && yaml.contains("output: psql-time"),
                yaml);
        Experiment again = ExperimentFile.parse(yaml, POSTGRES, TARGETS);
        assertEquals(
                e.environments().stream().map(EnvironmentPlan::client).toList(),
                again.environments().stream().map(EnvironmentPlan::client).toList());
        assertEquals(yaml, again.toYaml());
    }

    @Test
    void clientMistakesNameTheFieldAndTheFix() {
        String load =
                "load:\n  command:\n    run: ./psql-latency.sh 10 10\n    output: psql-time\n    durationSeconds: 10\n";
        List.of(
                        new String[] {
                            "  - { name: c, placement: docker, client: outside }\n" + load,
                            "environments[0].client",
                            "'outside' is not a place for the command; use inside"
                        },
                        new String[] {
                            "  - { name: c, placement: bare, client: host }\n" + load,
                            "environments[0].client",
                            "only applies to placement: docker"
                        },
                        new String[] {
                            "  - { name: c, placement: docker, network: host, client: container }\n" + load,
                            "environments[0].client",
                            "set network: bridge, or client: host"
                        },
                        new String[] {
                            "  - { name: c, placement: podman, client: container }\n" + load,
                            "environments[0].client",
                            "use client: inside or host with placement: podman"
                        },
                        new String[] {
                            "  - { name: c, placement: docker, target: bonnie, client: host }\n" + load,
                            "environments[0].client",
                            "target bonnie serves on none"
                        },
                        new String[] {
                            "  - { name: c, placement: docker, client: host }\nload:\n  http: { path: /, durationSeconds: 5 }\n",
                            "environments[0].client",
                            "only applies to a command load"
                        })
                .forEach(c -> {
                    String yaml = "name: c\ntarget: postgres\nenvironments:\n" + c[0];
                    String m = assertThrows(
                                    ExperimentException.class,
                                    () -> ExperimentFile.parse(yaml, Path.of("c.yaml"), TARGETS))
                            .getMessage();
                    assertTrue(m.contains(c[1]) && m.contains(c[2]), "expected " + c[1] + " and " + c[2] + " in: " + m);
                });
    }

    @Test
    void criteriaAreRefusedWithACommandLoad() {
        String yaml = file("  command:\n    run: ./bonnie.sh\n    output: bonnie++\n    durationSeconds: 10\n")
                + "criteria:\n  - errorPct(*) < 1\n";
        String m = assertThrows(ExperimentException.class, () -> ExperimentFile.parse(yaml, Path.of("c.yaml"), TARGETS))
                .getMessage();
        assertTrue(m.contains("criteria") && m.contains("a command load has none"), m);
    }
}

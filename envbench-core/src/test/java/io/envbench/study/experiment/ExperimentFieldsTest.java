package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import io.envbench.study.experiment.ExperimentFields.Field;
import io.envbench.study.experiment.ExperimentFields.Section;
import io.envbench.study.experiment.ExperimentFields.Type;
import org.junit.jupiter.api.Test;

class ExperimentFieldsTest {
    @Test
    void theReaderAllowsWhatTheCatalogueListsInTheFilesOrder() {
        // the order is the one error messages list ("fields here: ...") and the writer writes
        assertEquals(
                List.of(
                        "name",
                        "description",
                        "target",
                        "port",
                        "readyTimeoutSeconds",
                        "environments",
                        "tenants",
                        "configurations",
                        "repetitions",
                        "minRepetitions",
                        "maxRepetitions",
                        "intervalWidth",
                        "order",
                        "seed",
                        "baseline",
                        "isolation",
                        "allowGeneratorBound",
                        "calibration",
                        "correction",
                        "results",
                        "capacity",
                        "load",
                        "criteria"),
                YamlFields.TOP);
        assertEquals(
                List.of(
                        "name",
                        "placement",
                        "target",
                        "client",
                        "network",
                        "volume",
                        "cpuset",
                        "cpus",
                        "cpuShares",
                        "memory",
                        "seccomp",
                        "services",
                        "dockerDaemon"),
                YamlFields.ENVIRONMENT);
        assertEquals(
                List.of("network", "volume", "cpuset", "cpus", "cpuShares", "memory", "seccomp"), YamlFields.CONTAINER);
        assertEquals(
                List.of("placement", "network", "volume", "cpuset", "cpus", "cpuShares", "memory", "seccomp"),
                YamlFields.SERVICE);
        assertEquals(
                List.of(
                        "http",
                        "plan",
                        "command",
                        "properties",
                        "warmupSeconds",
                        "durationSeconds",
                        "engines",
                        "rmiKeystore"),
                YamlFields.LOAD_FIELDS);
        assertEquals(
                List.of("path", "threads", "requestsPerSecond", "rampUpSeconds", "warmupSeconds", "durationSeconds"),
                YamlFields.HTTP_FIELDS);
        assertEquals(
                List.of("cpus", "users", "quotes", "count", "highTenants", "low", "high", "each", "network", "memory"),
                YamlFields.TENANTS_FIELDS);
        assertEquals(
                List.of("name", "cpuControl", "interruptSteering", "controlIntervalSeconds", "highTenants", "floating"),
                YamlFields.CONFIGURATION_FIELDS);
    }

    @Test
    void aFormEditsMappingsFieldByFieldUnderTheirPath() {
        List<String> top = ExperimentFields.formKeys(Section.TOP);
        assertTrue(
                top.containsAll(List.of(
                        "load.http.threads", "load.command.run", "load.plan", "load.warmupSeconds", "criteria")),
                top.toString());
        assertFalse(top.contains("load.http.warmupSeconds"), "the form's warm-up is the load's, whichever the load");
        assertFalse(top.contains("environments"), "edited in a table of its own");
        assertEquals(
                List.of(
                        "name",
                        "placement",
                        "target",
                        "client",
                        "network",
                        "volume.type",
                        "volume.source",
                        "volume.path",
                        "cpuset",
                        "cpus",
                        "cpuShares",
                        "memory",
                        "seccomp",
                        "services",
                        "dockerDaemon.userlandProxy",
                        "dockerDaemon.storageDriver"),
                ExperimentFields.formKeys(Section.ENVIRONMENT));
        assertTrue(ExperimentFields.formKeys(Section.TENANTS)
                .containsAll(List.of("low.threads", "high.responseTimeGoalMs")));
    }

    @Test
    void theFileReferenceNamesEveryField() throws IOException {
        Path reference = Path.of("../testplans/experiments/README.md");
        String text = Files.readString(reference);
        List<String> missing = ExperimentFields.all().stream()
                .map(Field::name)
                .distinct()
                .filter(n -> !Pattern.compile("`" + n + "[`:]|\\b" + n + ":")
                        .matcher(text)
                        .find())
                .toList();
        assertEquals(List.of(), missing, reference + " documents every field of the catalogue");
    }

    @Test
    void everyFieldSaysWhatItDoesAndChoicesListTheirValues() {
        for (Field f : ExperimentFields.all()) {
            assertFalse(f.doc().isBlank(), f.section() + "." + f.name());
            assertEquals(f.type() == Type.CHOICE, !f.choices().isEmpty(), f.section() + "." + f.name());
            if (f.type() == Type.CHOICE && !f.defaultText().isEmpty()) {
                assertTrue(f.choices().contains(f.defaultText()), f.name() + "'s default is one of its choices");
            }
        }
        assertEquals(
                "the port on 127.0.0.1 where load goes; tenant-N listens on port + N - 1 (default "
                        + Experiment.DEFAULT_PORT + ")",
                ExperimentFields.field(Section.TOP, "port").orElseThrow().tip());
    }
}

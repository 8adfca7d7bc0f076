package io.envbench.study.experiment;

import static io.envbench.study.experiment.ExperimentFileTest.TARGETS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad file fails with the field path and line of the mistake, and a message that says the fix. Each starts
 * from {@link #VALID} (checked to read) and breaks one thing; line numbers are the file's, 1-based.
 */
class ExperimentFileErrorsTest {
    static final Path FILE = Path.of("bad.yaml");

    /** Lines: 1 name, 2 target, 3 environments, 4-5 bare, 6-8 docker, 9 load, 10 http, 11 path, 12 duration, 13 criteria, 14. */
    static final String VALID = """
            name: t
            target: nginx-static
            environments:
              - name: bare
                placement: bare
              - name: docker
                placement: docker
                network: bridge
            load:
              http:
                path: /page-4k.html
                durationSeconds: 5
            criteria:
              - throughput(docker) >= 0.2 * throughput(bare)
            """;

    private static ExperimentException fails(String yaml, String fieldPath, int line, String... fragments) {
        ExperimentException e =
                assertThrows(ExperimentException.class, () -> ExperimentFile.parse(yaml, FILE, TARGETS));
        assertEquals(fieldPath, e.fieldPath(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        String where = "bad.yaml line " + line + ": " + (fieldPath.isEmpty() ? "" : fieldPath + ": ");
        assertTrue(e.getMessage().startsWith(where), "expected '" + where + "...' in: " + e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "expected '" + f + "' in: " + e.getMessage());
        }
        return e;
    }

    private static String replace(String old, String replacement) {
        assertTrue(VALID.contains(old), old);
        return VALID.replace(old, replacement);
    }

    @Test
    void theStartingPointReads() throws Exception {
        assertEquals("t", ExperimentFile.parse(VALID, FILE, TARGETS).name());
    }

    // --- unknown fields and types ---

    @Test
    void aMisspeltFieldIsNamedWithTheFieldItMeant() {
        fails(
                VALID + "repetition: 4\n",
                "repetition",
                15,
                "is not a field here",
                "did you mean repetitions?",
                "fields here: name,");
    }

    @Test
    void aMisspeltNestedFieldIsNamedWithItsPath() {
        fails(
                replace("    network: bridge", "    netwrk: bridge"),
                "environments[1].netwrk",
                8,
                "did you mean network?");
        fails(
                replace("    durationSeconds: 5", "    duration: 5"),
                "load.http.duration",
                12,
                "did you mean durationSeconds?");
    }

    @Test
    void aWordWhereANumberBelongsSaysWhatToGive() {
        fails(VALID + "repetitions: four\n", "repetitions", 15, "'four' is not a whole number", "e.g. 4");
        fails(
                replace("durationSeconds: 5", "durationSeconds: 5s"),
                "load.http.durationSeconds",
                12,
                "'5s' is not a number");
        fails(
                replace("    durationSeconds: 5", "    durationSeconds: 5\n    threads: 2.5"),
                "load.http.threads",
                13,
                "not a whole number");
    }

    @Test
    void aListWhereAValueBelongsIsRefused() {
        fails(replace("name: t", "name: [a, b]"), "name", 1, "is a list");
        fails(
                replace("  http:\n    path: /page-4k.html\n    durationSeconds: 5", "  http: /page-4k.html"),
                "load.http",
                10,
                "is '/page-4k.html'; give the built-in HTTP load: path:, threads:, durationSeconds:");
    }

    @Test
    void repetitionsBelowOneAreRefused() {
        fails(VALID + "repetitions: 0\n", "repetitions", 15, "0 is below 1", "e.g. 4");
        fails(VALID + "repetitions: -3\n", "repetitions", 15, "-3 is below 1");
    }

    @Test
    void aMissingFieldIsReportedAtItsParent() {
        fails(replace("name: t\n", "description: no name\n"), "name", 1, "is missing", "e.g. static-web");
        fails(
                replace("    placement: docker\n", ""),
                "environments[1].placement",
                6,
                "is missing; give bare, docker or podman");
        fails(
                replace("    durationSeconds: 5\n", ""),
                "load.http.durationSeconds",
                10,
                "is missing",
                "warm-up included");
    }

    @Test
    void aFieldGivenTwiceIsRefused() {
        fails(VALID + "name: again\n", "name", 15, "is given twice (first on line 1); keep one");
    }

    @Test
    void anEmptyFileSaysHowToStart() {
        fails("", "", 1, "the file is empty");
    }

    @Test
    void brokenYamlGivesTheLineOfTheBreak() {
        fails(
                replace("    placement: docker", "    placement: docker: host"),
                "",
                7,
                "not valid YAML",
                "mapping values are not allowed");
        fails(replace("    placement: bare", "\tplacement: bare"), "", 5, "not valid YAML", "TAB");
    }

    @Test
    void anUnquotedCriterionWithColonSpaceSaysToQuoteIt() {
        fails(
                replace("  - throughput(docker)", "  - p90(bare, GET: page) < 5\n  - throughput(docker)"),
                "criteria[0]",
                14,
                "write the criterion as text, in quotes");
    }

    // --- names ---

    @Test
    void anInvalidNameSaysWhichCharactersAreAllowed() {
        fails(replace("name: t", "name: static web"), "name", 1, "'static web' is not a valid name", "e.g. static-web");
        fails(replace("  - name: docker", "  - name: docker bridge"), "environments[1].name", 6, "is not a valid name");
    }

    @Test
    void duplicateEnvironmentNamesPointAtTheSecond() {
        fails(
                replace("load:", "  - name: bare\n    placement: docker\nload:"),
                "environments[2].name",
                9,
                "'bare' is already the name of environments[0]; give each environment its own name");
    }

    @Test
    void noEnvironmentsIsRefused() {
        String yaml = VALID.substring(0, VALID.indexOf("environments:")) + "environments: []\n"
                + VALID.substring(VALID.indexOf("load:"));
        fails(yaml, "environments", 3, "is empty; add at least one environment");
    }

    // --- targets, placement, container options ---

    @Test
    void anUnknownTargetListsTheAvailableRecipes() {
        fails(
                replace("target: nginx-static", "target: nginx-statc"),
                "target",
                2,
                "'nginx-statc' is not a target recipe",
                "nginx-static");
        fails(
                replace("    network: bridge", "    network: bridge\n    target: redis"),
                "environments[1].target",
                9,
                "'redis' is not a target recipe; use one of [bonnie, daytrader, isucon-login, nginx-static");
    }

    @Test
    void anEnvironmentWithoutATargetSaysWhereToPutOne() {
        fails(
                replace("target: nginx-static\n", ""),
                "environments[0].target",
                3,
                "is missing",
                "nginx-static",
                "target: at the top");
    }

    @Test
    void anUnknownPlacementIsRefused() {
        fails(
                replace("placement: docker", "placement: dokcer"),
                "environments[1].placement",
                7,
                "'dokcer' is not a placement; use bare (a host process), docker (a Docker container) or podman (a Podman");
    }

    @Test
    void containerOptionsOnBareMetalAreRefused() {
        for (String option : new String[] {
            "network: host",
            "cpus: 1",
            "cpuset: \"0\"",
            "cpuShares: 512",
            "memory: 512m",
            "seccomp: unconfined",
            "volume: { type: tmpfs, path: /x }"
        }) {
            String field = option.substring(0, option.indexOf(':'));
            fails(
                    replace("    placement: bare", "    placement: bare\n    " + option),
                    "environments[0]." + field,
                    6,
                    "only applies to placement: docker or podman; remove it, or set placement: docker");
        }
    }

    @Test
    void aMisspeltNetworkModeGetsTheGuisMessage() {
        fails(
                replace("network: bridge", "network: brige"),
                "environments[1].network",
                8,
                "'brige' is not a network mode; use host or bridge");
    }

    @Test
    void containerLimitsAreCheckedAsTheGuiChecksThem() {
        fails(
                replace("    network: bridge", "    network: bridge\n    cpuset: \"0-999\""),
                "environments[1].cpuset",
                9,
                "CPU ",
                "does not exist on this host (online CPUs: ");
        fails(
                replace("    network: bridge", "    network: bridge\n    memory: 12XB"),
                "environments[1].memory",
                9,
                "'12XB' is not a size; use a number with k, m or g");
        fails(
                replace("    network: bridge", "    network: bridge\n    memory: 1m"),
                "environments[1].memory",
                9,
                "below Docker's minimum of 6m");
        fails(
                replace("    network: bridge", "    network: bridge\n    cpus: 0"),
                "environments[1].cpus",
                9,
                "out of range");
        fails(
                replace("    network: bridge", "    network: bridge\n    cpuShares: 1"),
                "environments[1].cpuShares",
                9,
                "use 2 to 262144");
    }

    @Test
    void aBadSeccompNamesTheValuesItTakes() {
        fails(
                replace("    network: bridge", "    network: bridge\n    seccomp: disabled"),
                "environments[1].seccomp",
                9,
                "'disabled' is not a seccomp setting; use default (the engine's own profile) or unconfined (no filter)");
    }

    @Test
    void volumesNeedWhatTheirTypeNeeds() {
        String v = "    network: bridge\n    volume:\n      type: %s\n";
        fails(
                replace("    network: bridge\n", v.formatted("bind") + "      path: /srv\n"),
                "environments[1].volume.source",
                9,
                "is missing; give the host folder");
        fails(
                replace("    network: bridge\n", v.formatted("tmpfs")),
                "environments[1].volume.path",
                9,
                "is missing",
                "inside the container");
        fails(
                replace("    network: bridge\n", v.formatted("tmpfs") + "      path: srv\n"),
                "environments[1].volume.path",
                11,
                "must be an absolute path inside the container");
        fails(
                replace("    network: bridge\n", v.formatted("nfs")),
                "environments[1].volume.type",
                10,
                "'nfs' is not a volume type");
        fails(
                replace("    network: bridge\n", v.formatted("none") + "      source: x\n"),
                "environments[1].volume.source",
                11,
                "only applies to type: bind or named");
    }

    // --- top-level values ---

    @Test
    void aPortOutOfRangeIsRefused() {
        fails(VALID + "port: 70000\n", "port", 15, "70000 is not a TCP port; use 1 to 65535");
    }

    @Test
    void aZeroReadyTimeoutIsRefused() {
        fails(VALID + "readyTimeoutSeconds: 0\n", "readyTimeoutSeconds", 15, "must be a positive number of seconds");
    }

    @Test
    void anUnknownOrderIsRefused() {
        fails(VALID + "order: random\n", "order", 15, "'random' is not a run order; use interleaved or randomized");
    }

    @Test
    void anUnknownBaselineListsTheEnvironments() {
        fails(
                VALID + "baseline: bare-metal\n",
                "baseline",
                15,
                "'bare-metal' is not an environment of this experiment; use one of bare, docker");
    }

    @Test
    void aCriterionNamingAnUnknownEnvironmentPointsAtIt() {
        fails(
                VALID + "  - p90(dockr) <= p90(bare)\n",
                "criteria[1]",
                15,
                "'dockr' is not an environment of this experiment",
                "bare, docker");
    }

    @Test
    void aMalformedCriterionSaysHowToWriteIt() {
        fails(replace(">= 0.2 *", "=> 0.2 *"), "criteria[0]", 14, "'=>' is not a comparison; use <, <=, > or >=");
    }

    // --- load ---

    @Test
    void bothHttpAndPlanAreRefused() {
        fails(replace("load:", "load:\n  plan: x.jmx"), "load", 9, "has both http: and plan:; keep one");
    }

    @Test
    void neitherHttpNorPlanIsRefused() {
        String yaml = VALID.substring(0, VALID.indexOf("load:")) + "load:\n  warmupSeconds: 5\n"
                + VALID.substring(VALID.indexOf("criteria:"));
        fails(yaml, "load", 9, "has neither http: nor plan:");
    }

    @Test
    void aMissingPlanFileSaysWhereItLooked(@TempDir Path dir) {
        String yaml = VALID.substring(0, VALID.indexOf("load:"))
                + "load:\n  plan: ../plans/nope.jmx\n  durationSeconds: 60\n";
        ExperimentException e = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(yaml, dir.resolve("experiments/bad.yaml"), TARGETS));
        assertEquals("load.plan", e.fieldPath());
        assertEquals(10, e.line());
        assertTrue(
                e.getMessage()
                        .contains("'../plans/nope.jmx' does not exist (looked for " + dir.resolve("plans/nope.jmx")
                                + ")"),
                e.getMessage());
    }

    /** A plan that is no JMeter plan (text, binary, XML of another kind) is refused at its line, before any run. */
    @Test
    void aFileThatIsNoJmeterPlanIsRefusedNamingWhy(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("text.jmx"), "hello, this is not a plan\n");
        Files.write(dir.resolve("binary.jmx"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, (byte) 0xff, 1});
        Files.writeString(dir.resolve("other.jmx"), "<?xml version=\"1.0\"?>\n<project><x/></project>\n");
        Files.writeString(
                dir.resolve("dtd.jmx"),
                "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n<x>&e;</x>\n");
        String[][] cases = {
            {"text.jmx", "it is not XML (line 1, column 1"},
            {"binary.jmx", "it is not XML"},
            {"other.jmx", "its root element is <project>, not <jmeterTestPlan>"},
            {"dtd.jmx", "its root element is <x>"}, // its DTD and entity are not read
        };
        for (String[] c : cases) {
            String yaml =
                    VALID.substring(0, VALID.indexOf("load:")) + "load:\n  plan: " + c[0] + "\n  durationSeconds: 5\n";
            ExperimentException e = assertThrows(
                    ExperimentException.class, () -> ExperimentFile.parse(yaml, dir.resolve("bad.yaml"), TARGETS));
            assertEquals("load.plan", e.fieldPath(), c[0] + ": " + e.getMessage());
            assertTrue(e.getMessage().contains("'" + c[0] + "' is not a JMeter plan: " + c[1]), e.getMessage());
            assertTrue(e.getMessage().contains("give a .jmx that JMeter saved"), e.getMessage());
            assertTrue(!e.getMessage().contains("Exception"), "no Java exception names: " + e.getMessage());
        }
    }

    @Test
    void aPlanWithoutDurationIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        String yaml = VALID.substring(0, VALID.indexOf("load:")) + "load:\n  plan: p.jmx\n";
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.parse(yaml, dir.resolve("bad.yaml"), TARGETS));
        assertEquals("load.durationSeconds", e.fieldPath());
        assertEquals(9, e.line());
    }

    @Test
    void negativeOrEmptyDurationsAreRefused() {
        fails(
                replace("    durationSeconds: 5", "    durationSeconds: 5\n    warmupSeconds: -1"),
                "load.http.warmupSeconds",
                13,
                "-1 s is negative; give 0 or more seconds");
        fails(
                replace("    durationSeconds: 5", "    durationSeconds: 5\n    rampUpSeconds: -0.5"),
                "load.http.rampUpSeconds",
                13,
                "-0.5 s is negative");
        fails(
                replace("durationSeconds: 5", "durationSeconds: 0"),
                "load.http.durationSeconds",
                12,
                "0 s is not a length");
        fails(
                replace("    durationSeconds: 5", "    durationSeconds: 5\n    warmupSeconds: 5"),
                "load.http.warmupSeconds",
                13,
                "leaves nothing of the 5 s run",
                "make it shorter than durationSeconds");
    }

    @Test
    void threadsBelowOneAreRefused() {
        fails(
                replace("    durationSeconds: 5", "    durationSeconds: 5\n    threads: 0"),
                "load.http.threads",
                13,
                "0 is below 1; give the number of concurrent users");
    }

    @Test
    void aPathWithoutSlashIsRefused() {
        fails(replace("path: /page-4k.html", "path: page-4k.html"), "load.http.path", 11, "start it with /");
    }

    @Test
    void planFieldsNextToHttpSayWhereTheyBelong() {
        fails(
                replace("load:", "load:\n  warmupSeconds: 5"),
                "load.warmupSeconds",
                10,
                "move it to load.http.warmupSeconds");
        fails(
                replace("load:", "load:\n  properties: { a: 1 }"),
                "load.properties",
                10,
                "only a plan reads -J properties");
    }

    @Test
    void aPropertyEnvBenchSetsItselfIsRefused(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("p.jmx"), "<jmeterTestPlan/>");
        String yaml = VALID.substring(0, VALID.indexOf("load:"))
                + "load:\n  plan: p.jmx\n  durationSeconds: 60\n  properties:\n    envbench.duration.seconds: 30\n";
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.parse(yaml, dir.resolve("bad.yaml"), TARGETS));
        assertEquals("load.properties.envbench.duration.seconds", e.fieldPath());
        assertEquals(13, e.line());
        assertTrue(e.getMessage().contains("set that instead"), e.getMessage());
        // the environment's address: the runner's for each run, at the Start Gate too
        for (String reserved : new String[] {"envbench.host", "envbench.port", "envbench.start.gate"}) {
            String withAddress = VALID.substring(0, VALID.indexOf("load:"))
                    + "load:\n  plan: p.jmx\n  durationSeconds: 60\n  properties:\n    " + reserved + ": 1\n";
            ExperimentException a = assertThrows(
                    ExperimentException.class,
                    () -> ExperimentFile.parse(withAddress, dir.resolve("bad.yaml"), TARGETS));
            assertEquals("load.properties." + reserved, a.fieldPath());
            assertTrue(a.getMessage().contains("is set by EnvBench for each run"), a.getMessage());
        }
    }

    @Test
    void aPlanThatStartsItsOwnEnvironmentsIsRefused() throws Exception {
        // the repository's static-web.jmx switches environments itself: under the runner they would start twice
        Path staticWeb = TARGETS.resolveSibling("testplans").resolve("static-web.jmx");
        String yaml = VALID.substring(0, VALID.indexOf("load:")) + "load:\n  plan: " + staticWeb
                + "\n  durationSeconds: 60\n";
        ExperimentException e = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(yaml, staticWeb.resolveSibling("x.yaml"), TARGETS));
        assertEquals("load.plan", e.fieldPath());
        assertEquals(10, e.line());
        assertTrue(
                e.getMessage().contains("starts environments itself")
                        && e.getMessage().contains("http-load.jmx"),
                e.getMessage());
        String builtin = yaml.replace("static-web.jmx", "http-load.jmx");
        assertEquals(
                staticWeb.resolveSibling("http-load.jmx"),
                ExperimentFile.parse(builtin, staticWeb.resolveSibling("x.yaml"), TARGETS)
                        .load()
                        .plan()
                        .orElseThrow());
    }

    @Test
    void aMissingFileHasNoLine() {
        ExperimentException e = assertThrows(
                ExperimentException.class, () -> ExperimentFile.read(Path.of("/nonexistent/x.yaml"), TARGETS));
        assertEquals(0, e.line());
        assertEquals("", e.fieldPath());
        assertTrue(e.getMessage().startsWith("x.yaml: does not exist"), e.getMessage());
    }
}

package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import io.envbench.base.recipe.TargetRecipeTest;
import io.envbench.launch.dockerdaemon.DaemonRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment file as text fields (the controller's form edits it) against the core's reader: the shipped examples
 * open and write back the same experiment, a new one is valid, and a bad field is named by the path the form knows.
 */
class ExperimentTextTest {
    @TempDir
    Path temp;

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path TARGETS = TargetRecipeTest.TARGETS;
    static final Path STATIC_WEB = ROOT.resolve("testplans/experiments/static-web.yaml");

    @Test
    void aSavedFileOpensInTheFormAndSavesToTheSameExperiment() throws Exception {
        Experiment original = ExperimentFile.read(STATIC_WEB, TARGETS);
        ExperimentText draft = ExperimentText.fromYaml(Files.readString(STATIC_WEB));
        assertEquals(4, draft.environmentCount());
        assertEquals("bind", draft.environment(3, "volume.type"));
        assertEquals(
                "../../targets/nginx-static/site",
                draft.environment(3, "volume.source"),
                "relative paths stay relative");
        Experiment again = draft.parse(STATIC_WEB, TARGETS);
        assertEquals(original.toYaml(), again.toYaml());
    }

    @Test
    void study001sServicesPlacedOneByOneSurviveTheFormAndABadOneIsNamed() throws Exception {
        Path threeTier = ROOT.resolve("testplans/experiments/seed-001-three-tier.yaml");
        Experiment original = ExperimentFile.read(threeTier, TARGETS);
        ExperimentText draft = ExperimentText.fromYaml(Files.readString(threeTier));
        assertEquals("{ web: { placement: docker, network: bridge } }", draft.environment(1, "services"));
        Experiment again = draft.parse(threeTier, TARGETS);
        for (String env : original.environmentNames()) {
            assertEquals(
                    original.environment(env).definition().toString(),
                    again.environment(env).definition().toString(),
                    env);
        }
        draft.environment(1, "dockerDaemon.userlandProxy", "false");
        assertEquals(
                Optional.of(DaemonRequest.userlandProxy(false)),
                draft.parse(threeTier, TARGETS).environment("nginx-bridge").dockerDaemon(),
                "the daemon setting goes into the file");
        assertTrue(draft.toYaml().contains("userlandProxy: false"), draft.toYaml());
        draft.environment(1, "dockerDaemon.userlandProxy", "");
        draft.environment(1, "services", "{ cache: { placement: docker } }");
        ExperimentException bad = draft.check(threeTier, TARGETS).orElseThrow();
        assertTrue(
                bad.getMessage().contains("environments[1].services.cache")
                        && bad.getMessage().contains("its services are db, app, web"),
                bad.getMessage());
        draft.environment(1, "services", "web docker");
        bad = draft.check(threeTier, TARGETS).orElseThrow();
        assertTrue(bad.getMessage().contains("environments[1].services"), bad.getMessage());
    }

    @Test
    void everyPresetIsValidTheMomentItIsAdded() {
        Path file = ROOT.resolve("testplans/experiments/new.yaml");
        for (EnvironmentPreset p : EnvironmentPreset.values()) {
            ExperimentText d = ExperimentText.newExperiment("nginx-static");
            d.addEnvironment(p.fields("added"));
            assertEquals(
                    Optional.empty(),
                    d.check(file, TARGETS).map(ExperimentException::getMessage),
                    p + " as added: " + d.toYaml());
        }
    }

    @Test
    void aNewExperimentIsValidAndRunsAsWritten() throws Exception {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        Path file = ROOT.resolve("testplans/experiments/new.yaml");
        assertEquals(Optional.empty(), d.check(file, TARGETS).map(ExperimentException::getMessage));
        Experiment e = d.parse(file, TARGETS);
        assertEquals(List.of("bare", "docker-host"), e.environmentNames());
        assertEquals(8, e.load().http().orElseThrow().threads());
    }

    @Test
    void aBadFieldIsNamedByThePathTheFormKnows() {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        d.set("load.http.threads", "0");
        ExperimentException e = d.check(STATIC_WEB, TARGETS).orElseThrow();
        assertEquals("load.http.threads", e.fieldPath());
        d.set("load.http.threads", "eight");
        assertEquals(
                "load.http.threads", d.check(STATIC_WEB, TARGETS).orElseThrow().fieldPath());
        d.set("load.http.threads", "8");
        d.environment(1, "network", "brige");
        ExperimentException net = d.check(STATIC_WEB, TARGETS).orElseThrow();
        assertEquals("environments[1].network", net.fieldPath());
        assertTrue(net.getMessage().contains("bridge"), net.getMessage());
    }

    @Test
    void savedElsewhereRelativePathsStillNameTheSameFiles() throws Exception {
        ExperimentText d = ExperimentText.fromYaml(Files.readString(STATIC_WEB));
        Path elsewhere = temp;
        d.relocate(STATIC_WEB.getParent(), elsewhere);
        Experiment moved = d.parse(elsewhere.resolve("static-web.yaml"), TARGETS);
        assertEquals(
                ExperimentFile.read(STATIC_WEB, TARGETS).toYaml(),
                moved.toYaml().replace(elsewhere.resolve("static-web.yaml").toString(), STATIC_WEB.toString()));
        assertTrue(
                d.environment(3, "volume.source").endsWith("targets/nginx-static/site"),
                d.environment(3, "volume.source"));
    }

    @Test
    void anEmptyPlanIsNamedAsThePlanField() {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        d.loadKind(ExperimentText.LoadKind.PLAN);
        ExperimentException e = d.check(STATIC_WEB, TARGETS).orElseThrow();
        assertEquals("load.plan", e.fieldPath());
        assertTrue(e.getMessage().contains(".jmx"), e.getMessage());
    }

    @Test
    void aBareMetalEnvironmentCarriesNoContainerField() {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        d.environment(0, "cpuset", "0");
        d.environment(0, "network", "host");
        String yaml = d.toYaml();
        assertFalse(yaml.contains("cpuset"), yaml);
        d.environment(0, "placement", "docker");
        assertTrue(d.toYaml().contains("cpuset"));
    }

    @Test
    void aPlanLoadWritesItsPropertiesAndWindow() throws Exception {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        d.loadKind(ExperimentText.LoadKind.PLAN);
        d.set("load.plan", "../http-load.jmx");
        d.set("load.properties", "envbench.threads=2\nenvbench.path=/page-1k.html");
        Experiment e = d.parse(STATIC_WEB, TARGETS);
        assertEquals(ROOT.resolve("testplans/http-load.jmx"), e.load().plan().orElseThrow());
        assertEquals("2", e.load().properties().get("envbench.threads"));
        assertEquals(4, e.load().warmup().toSeconds());
        ExperimentText back = ExperimentText.fromYaml(d.toYaml());
        assertEquals(ExperimentText.LoadKind.PLAN, back.loadKind());
        assertEquals("envbench.threads=2\nenvbench.path=/page-1k.html", back.get("load.properties"));
    }

    /** Study 003's (docs/studies.md#study-003) file (a command load: bonnie++ in five places) opens in the form and
     * writes back the same experiment.
     */
    @Test
    void theBonnieStudysCommandLoadOpensAndWritesBackTheSame() throws Exception {
        Path file = ROOT.resolve("testplans/experiments/seed-003-bonnie.yaml");
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        assertEquals(ExperimentText.LoadKind.COMMAND, d.loadKind());
        assertEquals("./bonnie.sh -s 2048 -r 1024 -n 16 -f", d.get("load.command.run"));
        assertEquals("bonnie++", d.get("load.command.output"));
        assertEquals("1g", d.get("load.command.bareMemory"));
        assertEquals(6, d.environmentCount());
        Experiment fromForm = d.parse(file, TARGETS);
        Experiment fromFile = ExperimentFile.read(file, TARGETS);
        assertEquals(fromFile.load(), fromForm.load());
        assertEquals(fromFile.toYaml(), fromForm.toYaml());
    }

    /** Study 002's (docs/studies.md#study-002) file (psql in four places: client inside, in a second container, on the
     * host) keeps each client: through the form.
     */
    @Test
    void thePostgresStudysClientPlacesOpenAndWriteBackTheSame() throws Exception {
        Path file = ROOT.resolve("testplans/experiments/seed-002-postgres.yaml");
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        assertEquals(ExperimentText.LoadKind.COMMAND, d.loadKind());
        assertEquals("psql-time", d.get("load.command.output"));
        assertEquals(4, d.environmentCount());
        Experiment fromForm = d.parse(file, TARGETS);
        Experiment fromFile = ExperimentFile.read(file, TARGETS);
        assertEquals(fromFile.toYaml(), fromForm.toYaml());
        assertTrue(
                fromForm.toYaml().contains("client: container")
                        && fromForm.toYaml().contains("client: host"),
                fromForm.toYaml());
    }

    /**
     * The form has no fields for remote engines: a file with them opens and saves with them, its relative keystore
     * still naming the same file when saved elsewhere.
     */
    @Test
    void remoteEnginesSurviveTheFormAndItsSaveElsewhere() throws Exception {
        Path folder = Files.createDirectories(temp.resolve("a"));
        Files.writeString(folder.resolve("rmi_keystore.jks"), "not read here");
        Path file = folder.resolve("remote.yaml");
        Files.writeString(file, """
                name: remote
                target: nginx-static
                environments:
                  - { name: bare, placement: bare }
                load:
                  http: { path: /, durationSeconds: 5 }
                  engines: [127.0.0.1:24101, 127.0.0.1:24102]
                  rmiKeystore: rmi_keystore.jks
                """);
        Experiment fromFile = ExperimentFile.read(file, TARGETS);
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        assertEquals(fromFile.load(), d.parse(file, TARGETS).load());
        Path elsewhere = Files.createDirectories(temp.resolve("b"));
        d.relocate(folder, elsewhere);
        assertEquals(
                fromFile.load().engines(),
                d.parse(elsewhere.resolve("remote.yaml"), TARGETS).load().engines());
    }

    /** The reader reads each field's text as written: what is written must keep that text, number-like or empty. */
    @Test
    void aTextThatIsNotANumberAsWrittenKeepsItsText() throws Exception {
        ExperimentText d = ExperimentText.newExperiment("nginx-static");
        d.set("name", "007");
        d.loadKind(ExperimentText.LoadKind.PLAN);
        d.set("load.plan", "../http-load.jmx");
        d.set("load.properties", "envbench.threads=08\nenvbench.tag=\nenvbench.rate=1.50");
        Experiment e = d.parse(STATIC_WEB, TARGETS);
        assertEquals("007", e.name());
        assertEquals("08", e.load().properties().get("envbench.threads"));
        assertEquals("", e.load().properties().get("envbench.tag"), "an empty value is passed as -Jenvbench.tag=");
        assertEquals("1.50", e.load().properties().get("envbench.rate"));
        Experiment again = ExperimentFile.parse(e.toYaml(), STATIC_WEB, TARGETS);
        assertEquals(e.name(), again.name());
        assertEquals(e.load(), again.load());
        assertTrue(d.toYaml().contains("repetitions: 4\n"), "a number as typed stays a number:\n" + d.toYaml());
    }

    /** A services: value YAML would read otherwise in one line (a comma, a space) is quoted, so it reads back the same. */
    @Test
    void aServicesLineQuotesWhatYamlWouldMisread() throws Exception {
        ExperimentText d = ExperimentText.fromYaml("""
                name: s
                environments:
                  - name: e
                    placement: bare
                    services: { web: { placement: docker, volume: { type: bind, source: "my site, 2", path: /srv } } }
                load: { http: { path: /, durationSeconds: 5 } }
                """);
        assertEquals(
                "{ web: { placement: docker, volume: { type: bind, source: \"my site, 2\", path: /srv } } }",
                d.environment(0, "services"));
        assertEquals(d.toYaml(), ExperimentText.fromYaml(d.toYaml()).toYaml(), "the line reads back to the same file");
        assertTrue(d.toYaml().contains("source: \"my site, 2\""), d.toYaml());
    }
}

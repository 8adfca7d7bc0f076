package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.envbench.study.cpucontrol.CpuControlMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The form's model of a multi-tenant experiment (tenants: and configurations:) against the core's reader: every
 * shipped multi-tenant example opens and writes back the same experiment, edits land in the file, and a bad field is
 * named by the path the form knows.
 */
class MultiTenantTextTest {
    static final Path ROOT = ExperimentTextTest.ROOT;
    static final Path TARGETS = ExperimentTextTest.TARGETS;

    static Path example(String name) {
        return ROOT.resolve("testplans/experiments/" + name);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "daytrader-scenario-1.yaml",
                "daytrader-scenario-2.yaml",
                "daytrader-scenario-3.yaml",
                "daytrader-paper.yaml"
            })
    void everyMultiTenantExampleOpensAndWritesBackTheSameExperiment(String name) throws Exception {
        Path file = example(name);
        Experiment fromFile = ExperimentFile.read(file, TARGETS);
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        assertTrue(d.multiTenant());
        assertEquals(ExperimentText.TenantsForm.SCENARIO, d.tenantsForm());
        assertEquals(List.of("none", "static", "dynamic"), d.comparedNames());
        assertEquals("off", d.configuration(0, "interruptSteering"), "YAML's bare off is shown as off");
        assertEquals(Optional.empty(), d.check(file, TARGETS).map(ExperimentException::getMessage));
        Experiment fromForm = d.parse(file, TARGETS);
        assertEquals(fromFile.toYaml(), fromForm.toYaml());
        // and the form's own file reads back to the same form
        assertEquals(d.toYaml(), ExperimentText.fromYaml(d.toYaml()).toYaml());
    }

    @Test
    void theScenariosFileOpensAndWritesBackTheSameExperiment() throws Exception {
        Path file = example("daytrader-scenarios.yaml");
        Experiment fromFile = ExperimentFile.read(file, TARGETS);
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        assertEquals(List.of("s1-none", "s2-none", "s3-none", "s3-static", "s3-dynamic"), d.comparedNames());
        assertEquals("0", d.configuration(0, "highTenants"));
        assertEquals(fromFile.toYaml(), d.parse(file, TARGETS).toYaml());
        assertEquals(d.toYaml(), ExperimentText.fromYaml(d.toYaml()).toYaml());
    }

    @Test
    void aHighLoadOnlyAConfigurationUsesIsKept() throws Exception {
        Path file = example("daytrader-scenario-1.yaml"); // highTenants: 0, no high:
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        d.set("tenants.high.threads", "24");
        d.set("tenants.high.requestsPerSecond", "900");
        assertFalse(d.toYaml().contains("high: {") || d.toYaml().contains("  high:"), "no one runs it yet");
        d.configuration(2, "highTenants", "1");
        assertTrue(d.toYaml().contains("  high:"), d.toYaml());
        Tenancy t = d.parse(file, TARGETS).tenancy().orElseThrow();
        assertEquals(
                List.of(190.0, 190.0, 190.0, 900.0),
                t.tenantsUnder(t.configuration("dynamic")).stream()
                        .map(TenantPlan::requestsPerSecond)
                        .toList());
        assertEquals(
                List.of(190.0, 190.0, 190.0, 190.0),
                t.tenantsUnder(t.configuration("none")).stream()
                        .map(TenantPlan::requestsPerSecond)
                        .toList());
    }

    @Test
    void editsOfTenantsAndConfigurationsLandInTheFile() throws Exception {
        Path file = example("daytrader-scenario-2.yaml");
        ExperimentText d = ExperimentText.fromYaml(Files.readString(file));
        d.set("tenants.count", "3");
        d.set("tenants.high.requestsPerSecond", "800");
        d.configuration(2, "controlIntervalSeconds", "2");
        d.configuration(1, "cpuControl", "dynamic");
        Tenancy t = d.parse(file, TARGETS).tenancy().orElseThrow();
        assertEquals(List.of("tenant-1", "tenant-2", "tenant-3"), t.tenantNames());
        assertEquals(800, t.tenants().get(2).requestsPerSecond());
        assertTrue(t.tenants().get(2).high());
        assertEquals(CpuControlMode.DYNAMIC, t.configuration("static").cpuControl());
        assertEquals(2, t.configuration("dynamic").controlInterval().toSeconds());
        // an interval only goes with dynamic: a configuration set back to static writes none (the form greys it out)
        d.configuration(2, "cpuControl", "static");
        assertFalse(d.hasControlInterval(2));
        assertEquals(Optional.empty(), d.check(file, TARGETS).map(ExperimentException::getMessage));
        // high: only with high tenants
        d.set("tenants.highTenants", "0");
        assertFalse(d.toYaml().contains("high:"), d.toYaml());
        assertEquals(Optional.empty(), d.check(file, TARGETS).map(ExperimentException::getMessage));
    }

    @Test
    void tenantsWrittenOutEachWithTheirOwnFields() throws Exception {
        ExperimentText d = ExperimentText.newMultiTenantExperiment();
        d.tenantsForm(ExperimentText.TenantsForm.EACH);
        d.addTenant(Map.of("threads", "2", "requestsPerSecond", "15", "cpuset", "0"));
        d.addTenant(Map.of("threads", "3", "requestsPerSecond", "0", "high", "true", "responseTimeGoalMs", "50"));
        Path file = example("new.yaml");
        Tenancy t = d.parse(file, TARGETS).tenancy().orElseThrow();
        assertEquals(2, t.tenants().size());
        assertEquals(
                "0",
                t.tenants().get(0).definition().options().cpuset().orElseThrow().toString());
        assertTrue(t.tenants().get(1).high());
        assertEquals(50, t.tenants().get(1).responseTimeGoalMs().getAsLong());
        assertFalse(d.toYaml().contains("count:"), "the scenario's fields stay out of an each: file");
        ExperimentText back = ExperimentText.fromYaml(d.toYaml());
        assertEquals(ExperimentText.TenantsForm.EACH, back.tenantsForm());
        assertEquals("true", back.tenant(1, "high"));
        assertEquals(d.parse(file, TARGETS).toYaml(), back.parse(file, TARGETS).toYaml());
    }

    @Test
    void aNewMultiTenantExperimentIsValid() throws Exception {
        ExperimentText d = ExperimentText.newMultiTenantExperiment();
        Path file = example("my-tenants.yaml");
        assertEquals(Optional.empty(), d.check(file, TARGETS).map(ExperimentException::getMessage));
        Experiment e = d.parse(file, TARGETS);
        assertEquals(List.of("none", "static", "dynamic"), e.environmentNames());
        assertEquals(4, e.tenancy().orElseThrow().tenants().size());
    }

    @Test
    void aBadFieldIsNamedByItsPath() throws Exception {
        ExperimentText d = ExperimentText.fromYaml(Files.readString(example("daytrader-scenario-2.yaml")));
        d.configuration(1, "cpuControl", "statik");
        ExperimentException e =
                d.check(example("daytrader-scenario-2.yaml"), TARGETS).orElseThrow();
        assertEquals("configurations[1].cpuControl", e.fieldPath());
        assertTrue(e.getMessage().contains("static"), e.getMessage());
        d.configuration(1, "cpuControl", "static");
        d.set("tenants.low.threads", "0");
        assertEquals(
                "tenants.low.threads",
                d.check(example("daytrader-scenario-2.yaml"), TARGETS)
                        .orElseThrow()
                        .fieldPath());
    }
}

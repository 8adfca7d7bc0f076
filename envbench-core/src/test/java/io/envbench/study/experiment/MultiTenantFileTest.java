package io.envbench.study.experiment;

import static io.envbench.study.experiment.ExperimentFileTest.TARGETS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import org.junit.jupiter.api.Test;

/**
 * Multi-tenant experiment files ({@code tenants:} and {@code configurations:}): the presets read as documented and
 * round-trip through toYaml; every new field at its limits reads, one beyond fails with its line, field path and fix.
 */
class MultiTenantFileTest {
    static final Path EXPERIMENTS =
            Path.of("..", "testplans", "experiments").toAbsolutePath().normalize();
    /** In envbench-core's folder, so ../testplans/daytrader.jmx is the repository's plan. */
    static final Path FILE = Path.of("mt.yaml");

    /** Lines: 1 name, 2 target, 3 port, 4 tenants, 5 cpus, 6 count, 7 highTenants, 8 low, 9 high, 10 configurations, 11, 12, 13 load, 14 plan, 15 warmup, 16 duration. */
    static final String VALID = """
            name: mt
            target: daytrader
            port: 18081
            tenants:
              cpus: 2
              count: 3
              highTenants: 1
              low: { threads: 4, requestsPerSecond: 100 }
              high: { threads: 8, requestsPerSecond: 1000, responseTimeGoalMs: 50 }
            configurations:
              - { name: none, cpuControl: none }
              - { name: dynamic, cpuControl: dynamic, interruptSteering: on, controlIntervalSeconds: 2 }
            load:
              plan: ../testplans/daytrader.jmx
              warmupSeconds: 5
              durationSeconds: 20
            """;

    /** Lines: 4 tenants, 5 users, 6 each, 7 first tenant, 8 second. */
    static final String WRITTEN = """
            name: mt
            target: daytrader
            port: 18081
            tenants:
              users: 50
              each:
                - { threads: 2, requestsPerSecond: 15, cpuset: "0" }
                - { name: tenant-2, threads: 3, responseTimeGoalMs: 200, high: true }
            configurations:
              - { name: none }
            load:
              plan: ../testplans/daytrader.jmx
              durationSeconds: 20
            """;

    static Experiment read(String yaml) throws ExperimentException {
        return ExperimentFile.parse(yaml, FILE, TARGETS);
    }

    static Experiment preset(String name) throws ExperimentException {
        return ExperimentFile.read(EXPERIMENTS.resolve(name), TARGETS);
    }

    private static ExperimentException fails(String yaml, String fieldPath, int line, String... fragments) {
        ExperimentException e = assertThrows(ExperimentException.class, () -> read(yaml));
        assertEquals(fieldPath, e.fieldPath(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "expected '" + f + "' in: " + e.getMessage());
        }
        return e;
    }

    private static String valid(String old, String replacement) {
        assertTrue(VALID.contains(old), old);
        return VALID.replace(old, replacement);
    }

    private static String written(String old, String replacement) {
        assertTrue(WRITTEN.contains(old), old);
        return WRITTEN.replace(old, replacement);
    }

    @Test
    void thePresetFormExpandsLowThenHighTenants() throws Exception {
        Experiment e = read(VALID);
        Tenancy t = e.tenancy().orElseThrow();
        assertEquals(List.of("tenant-1", "tenant-2", "tenant-3"), t.tenantNames());
        assertEquals(
                List.of(100.0, 100.0, 1000.0),
                t.tenants().stream().map(TenantPlan::requestsPerSecond).toList());
        assertEquals(
                List.of(4, 4, 8), t.tenants().stream().map(TenantPlan::threads).toList());
        assertEquals(OptionalLong.of(50), t.tenants().get(2).responseTimeGoalMs());
        assertEquals(
                List.of(false, false, true),
                t.tenants().stream().map(TenantPlan::high).toList(),
                "the last one is high");
        assertEquals(List.of(18081, 18082, 18083), e.ports());
        TenantPlan second = t.tenants().get(1);
        EnvironmentDefinition d = second.definition();
        assertEquals(EnvironmentDefinition.Placement.DOCKER, d.placement());
        assertEquals("daytrader", d.target());
        assertEquals("daytrader_tenant_2", d.options().env().get("DB_NAME"));
        assertEquals("daytrader_tenant_2", second.database());
        assertEquals(
                List.of("none", "dynamic"), e.environmentNames(), "the configurations are what the runs interleave");
        assertEquals("none", e.baseline());
        assertEquals(
                new TenantConfiguration("dynamic", CpuControlMode.DYNAMIC, true, Duration.ofSeconds(2)),
                t.configuration("dynamic"));
        assertEquals(
                new TenantConfiguration(
                        "none", CpuControlMode.NONE, false, TenantConfiguration.DEFAULT_CONTROL_INTERVAL),
                t.configuration("none"));
        assertEquals(Tenancy.DEFAULT_USERS, t.users());
        assertEquals(List.of(), e.environments());
        assertTrue(e.usesDocker());
    }

    @Test
    void theWrittenOutFormKeepsEachTenantsOwnFields() throws Exception {
        Tenancy t = read(WRITTEN).tenancy().orElseThrow();
        assertEquals(
                "0",
                t.tenants().get(0).definition().options().cpuset().orElseThrow().toString());
        assertEquals(0.0, t.tenants().get(1).requestsPerSecond(), "closed loop by default");
        assertTrue(t.tenants().get(1).closedLoop());
        assertEquals(
                List.of(false, true), t.tenants().stream().map(TenantPlan::high).toList());
        assertEquals(50, t.users());
        assertEquals(CpuSet.online().size(), t.cpus(), "all of this host's CPUs by default");
    }

    @Test
    void thePresetsReadAsTheirFilesSay() throws Exception {
        for (int scenario = 1; scenario <= 3; scenario++) {
            Experiment e = preset("daytrader-scenario-" + scenario + ".yaml");
            Tenancy t = e.tenancy().orElseThrow();
            assertEquals(2, t.cpus());
            assertEquals(4, t.tenants().size());
            List<Double> rates =
                    t.tenants().stream().map(TenantPlan::requestsPerSecond).toList();
            assertEquals(
                    scenario - 1,
                    rates.stream().filter(r -> r == 1200).count(),
                    "scenario " + scenario + "'s high tenants: " + rates);
            assertEquals(190.0, rates.get(0), "calibrated: 66% of the machine over 4 tenants");
            assertEquals(1200.0, scenario == 1 ? 1200.0 : rates.get(3), "the last tenants are the high ones");
            assertEquals(
                    scenario - 1, t.tenants().stream().filter(TenantPlan::high).count());
            assertEquals(List.of("none", "static", "dynamic"), e.environmentNames());
            assertSameTenancy(e, read(e.toYaml()));
        }
        // figures 3-5 in one file: each configuration its scenario, the tenants' loads the scenario files'
        Experiment figures = preset("daytrader-scenarios.yaml");
        Tenancy all = figures.tenancy().orElseThrow();
        assertEquals(List.of("s1-none", "s2-none", "s3-none", "s3-static", "s3-dynamic"), figures.environmentNames());
        assertEquals("s3-none", figures.baseline());
        for (String c : figures.environmentNames()) {
            long high = all.tenantsUnder(all.configuration(c)).stream()
                    .filter(TenantPlan::high)
                    .count();
            assertEquals(c.charAt(1) - '1', high, c);
            assertEquals(
                    preset("daytrader-scenario-" + c.charAt(1) + ".yaml").tenancy().orElseThrow().tenants().stream()
                            .map(p -> p.requestsPerSecond() + "/" + p.threads())
                            .toList(),
                    all.tenantsUnder(all.configuration(c)).stream()
                            .map(p -> p.requestsPerSecond() + "/" + p.threads())
                            .toList(),
                    c + " runs its scenario file's loads");
        }
        assertSameTenancy(figures, read(figures.toYaml()));
        Experiment paper = preset("daytrader-paper.yaml");
        Tenancy t = paper.tenancy().orElseThrow();
        assertEquals(16, t.cpus(), "validates on this host; runs only on one with 16 CPUs");
        assertEquals(8, t.tenants().size());
        assertTrue(t.tenants().stream().allMatch(p -> p.threads() == 32));
        assertEquals(
                List.of(1500.0, 1500.0, 1500.0, 1500.0, 1500.0, 1500.0, 1500.0, 20000.0),
                t.tenants().stream().map(TenantPlan::requestsPerSecond).toList());
        assertSameTenancy(paper, read(paper.toYaml()));
    }

    @Test
    void itRoundTripsThroughToYaml() throws Exception {
        for (String yaml : List.of(VALID, WRITTEN)) {
            Experiment e = read(yaml);
            Experiment again = read(e.toYaml());
            assertSameTenancy(e, again);
            assertEquals(e.toYaml(), again.toYaml());
        }
    }

    @Test
    void onlyTheNamedConfigurationsRun() throws Exception {
        Experiment e = read(VALID).withConfigurations(List.of("dynamic"));
        assertEquals(List.of("dynamic"), e.environmentNames());
        assertEquals("dynamic", e.baseline(), "the baseline was left out: the first kept one is");
        InvalidSettingException bad =
                assertThrows(InvalidSettingException.class, () -> read(VALID).withConfigurations(List.of("statik")));
        assertTrue(
                bad.getMessage().contains("'statik' is not a configuration of mt; use none, dynamic"),
                bad.getMessage());
    }

    @Test
    void countAndHighTenantsAtAndBeyondTheirLimits() throws Exception {
        assertEquals(
                1,
                read(valid("count: 3", "count: 1").replace("highTenants: 1", "highTenants: 1"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .size());
        assertEquals(
                64,
                read(valid("count: 3", "count: 64").replace("port: 18081", "port: 20000"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .size());
        fails(valid("count: 3", "count: 0"), "tenants.count", 6, "0 is outside 1 to 64");
        fails(valid("count: 3", "count: 65"), "tenants.count", 6, "65 is outside 1 to 64");
        fails(valid("count: 3", "count: three"), "tenants.count", 6, "'three' is not a whole number");
        assertEquals(
                3,
                read(valid("highTenants: 1", "highTenants: 3")).tenancy().orElseThrow().tenants().stream()
                        .filter(t -> t.requestsPerSecond() == 1000)
                        .count(),
                "every tenant high");
        fails(
                valid("highTenants: 1", "highTenants: 4"),
                "tenants.highTenants",
                7,
                "outside 0 to count (3)",
                "scenario 2");
        fails(valid("highTenants: 1", "highTenants: -1"), "tenants.highTenants", 7, "outside 0 to count");
        fails(
                valid("  high: { threads: 8, requestsPerSecond: 1000, responseTimeGoalMs: 50 }\n", ""),
                "tenants.high",
                4,
                "is missing; highTenants: 1 needs the high load");
        fails(valid("highTenants: 1", "highTenants: 0"), "tenants.high", 9, "is not used: highTenants is 0");
        fails(
                valid("  low: { threads: 4, requestsPerSecond: 100 }\n", ""),
                "tenants.low",
                4,
                "is missing",
                "tenant-1 .. tenant-2");
        fails(valid("highTenants: 1", "highTenants: 1\n  each: []"), "tenants.each", 8, "goes instead of count:");
        fails(valid("  count: 3\n", ""), "tenants.count", 4, "is missing; give the tenants: count:");
        fails(
                valid("low: { threads: 4,", "low: { cpuset: \"0\", threads: 4,"),
                "tenants.low.cpuset",
                8,
                "is not a field here",
                "threads, requestsPerSecond, responseTimeGoalMs");
    }

    @Test
    void aTenantsLoadAtAndBeyondItsLimits() throws Exception {
        fails(valid("low: { threads: 4,", "low: { threads: 0,"), "tenants.low.threads", 8, "0 is below 1");
        fails(valid("low: { threads: 4,", "low: {"), "tenants.low.threads", 8, "is missing");
        assertEquals(
                200,
                read(valid("low: { threads: 4,", "low: { threads: 200,"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .get(0)
                        .threads(),
                "as many threads as users");
        fails(
                valid("low: { threads: 4,", "low: { threads: 201,"),
                "tenants.low.threads",
                8,
                "201 threads are above tenants.users (200)",
                "raise users: or lower threads");
        fails(
                valid("requestsPerSecond: 100 }", "requestsPerSecond: -1 }"),
                "tenants.low.requestsPerSecond",
                8,
                "is not a rate");
        assertEquals(
                1_000_000.0,
                read(valid("requestsPerSecond: 100 }", "requestsPerSecond: 1000000 }"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .get(0)
                        .requestsPerSecond());
        fails(
                valid("requestsPerSecond: 100 }", "requestsPerSecond: 1000001 }"),
                "tenants.low.requestsPerSecond",
                8,
                "above 1000000");
        assertEquals(
                OptionalLong.of(3_600_000),
                read(valid("responseTimeGoalMs: 50", "responseTimeGoalMs: 3600000"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .get(2)
                        .responseTimeGoalMs());
        fails(
                valid("responseTimeGoalMs: 50", "responseTimeGoalMs: 3600001"),
                "tenants.high.responseTimeGoalMs",
                9,
                "from 1 to 3600000");
        fails(
                valid("responseTimeGoalMs: 50", "responseTimeGoalMs: 0"),
                "tenants.high.responseTimeGoalMs",
                9,
                "from 1 to 3600000");
        fails(
                valid("responseTimeGoalMs: 50", "responseTimeGoalMs: 1.5"),
                "tenants.high.responseTimeGoalMs",
                9,
                "not a whole number");
    }

    @Test
    void theSharedFieldsAtAndBeyondTheirLimits() throws Exception {
        assertEquals(
                1, read(valid("cpus: 2", "cpus: 1")).tenancy().orElseThrow().cpus());
        assertEquals(
                8192,
                read(valid("cpus: 2", "cpus: 8192")).tenancy().orElseThrow().cpus(),
                "a bigger machine's file validates here");
        fails(valid("cpus: 2", "cpus: 0"), "tenants.cpus", 5, "0 is not a number of CPUs");
        fails(valid("cpus: 2", "cpus: 8193"), "tenants.cpus", 5, "8193 is not a number of CPUs");
        fails(valid("cpus: 2", "cpus: 2\n  users: 0"), "tenants.users", 6, "0 is outside 1 to 100000");
        fails(valid("cpus: 2", "cpus: 2\n  users: 100001"), "tenants.users", 6, "outside 1 to 100000");
        fails(valid("cpus: 2", "cpus: 2\n  quotes: 0"), "tenants.quotes", 6, "0 is outside 1 to 1000000");
        fails(valid("cpus: 2", "cpus: 2\n  network: brige"), "tenants.network", 6, "'brige' is not a network mode");
        assertEquals(
                "host",
                read(valid("cpus: 2", "cpus: 2\n  network: host"))
                        .tenancy()
                        .orElseThrow()
                        .tenants()
                        .get(0)
                        .definition()
                        .options()
                        .networkMode()
                        .dockerName());
        fails(valid("cpus: 2", "cpus: 2\n  memory: 5m"), "tenants.memory", 6, "6m");
        fails(
                valid("port: 18081", "port: 65534"),
                "port",
                3,
                "65534 leaves no port for tenant-3 (65536 is above 65535)");
        fails(valid("cpus: 2", "cpus: 2\n  counts: 3"), "tenants.counts", 6, "did you mean count?");
    }

    @Test
    void writtenOutTenantsAtAndBeyondTheirLimits() throws Exception {
        fails(
                written("- { name: tenant-2,", "- { name: tenant-3,"),
                "tenants.each[1].name",
                8,
                "'tenant-3' must be tenant-2");
        fails(written("users: 50", "users: 2"), "tenants.each[1].threads", 8, "3 threads are above tenants.users (2)");
        fails(written("users: 50", "users: 50\n  cpus: 1\n  count: 2"), "tenants.each", 8, "goes instead of count:");
        fails(
                written("  users: 50", "  cpus: 1\n  users: 50").replace("cpuset: \"0\"", "cpuset: \"1\""),
                "tenants.each[0].cpuset",
                8,
                "names CPU 1, outside the tenants' CPUs 0-0 (tenants.cpus: 1)");
        fails(written("cpuset: \"0\"", "cpuset: \"4095\""), "tenants.each[0].cpuset", 7);
        fails(written("  users: 50", "  users: 50\n  low: { threads: 1 }"), "tenants.low", 6, "only goes with count:");
        fails(
                written(
                        "  each:\n    - { threads: 2, requestsPerSecond: 15, cpuset: \"0\" }\n    - { name: tenant-2, threads: 3, responseTimeGoalMs: 200, high: true }",
                        "  each: []"),
                "tenants.each",
                6,
                "give a list of tenants");
        fails(written("threads: 2,", "thread: 2,"), "tenants.each[0].thread", 7, "did you mean threads?");
        fails(written("high: true", "high: maybe"), "tenants.each[1].high", 8, "'maybe' is neither on nor off");
    }

    @Test
    void configurationsAtAndBeyondTheirLimits() throws Exception {
        assertEquals(
                Duration.ofSeconds(1),
                read(valid("controlIntervalSeconds: 2", "controlIntervalSeconds: 1"))
                        .tenancy()
                        .orElseThrow()
                        .configuration("dynamic")
                        .controlInterval());
        assertEquals(
                Duration.ofSeconds(10),
                read(valid("controlIntervalSeconds: 2", "controlIntervalSeconds: 10"))
                        .tenancy()
                        .orElseThrow()
                        .configuration("dynamic")
                        .controlInterval());
        fails(
                valid("controlIntervalSeconds: 2", "controlIntervalSeconds: 0.5"),
                "configurations[1].controlIntervalSeconds",
                12,
                "outside 1 to 10 s");
        fails(
                valid("controlIntervalSeconds: 2", "controlIntervalSeconds: 11"),
                "configurations[1].controlIntervalSeconds",
                12,
                "outside 1 to 10 s");
        fails(
                valid("cpuControl: none }", "cpuControl: none, controlIntervalSeconds: 5 }"),
                "configurations[0].controlIntervalSeconds",
                11,
                "only applies to cpuControl: dynamic");
        fails(
                valid("cpuControl: none }", "cpuControl: pinned }"),
                "configurations[0].cpuControl",
                11,
                "'pinned' is no CPU controller; choose one of none, static, dynamic");
        fails(
                valid("interruptSteering: on", "interruptSteering: sometimes"),
                "configurations[1].interruptSteering",
                12,
                "neither on nor off");
        assertTrue(read(valid("interruptSteering: on", "interruptSteering: true"))
                .tenancy()
                .orElseThrow()
                .configuration("dynamic")
                .interruptSteering());
        String spare = valid("controlIntervalSeconds: 2 }", "controlIntervalSeconds: 2, floating: spare }");
        assertEquals(
                FloatingCpus.SPARE,
                read(spare).tenancy().orElseThrow().configuration("dynamic").floating());
        assertTrue(read(spare).toYaml().contains("floating: spare"), "written back");
        assertEquals(
                FloatingCpus.UNPINNED,
                read(VALID).tenancy().orElseThrow().configuration("dynamic").floating(),
                "by default floating tenants run where no tenant is pinned");
        fails(
                valid("controlIntervalSeconds: 2 }", "controlIntervalSeconds: 2, floating: everywhere }"),
                "configurations[1].floating",
                12,
                "'everywhere' is not a place for floating tenants; use unpinned");
        fails(
                valid("cpuControl: none }", "cpuControl: none, floating: all }"),
                "configurations[0].floating",
                11,
                "only applies under a cpu control");
        fails(
                valid("name: dynamic,", "name: none,"),
                "configurations[1].name",
                12,
                "already the name of configurations[0]");
        fails(valid("name: dynamic,", "name: NONE,"), "configurations[1].name", 12, "differ only in case");
        fails(valid("name: dynamic,", "name: a/b,"), "configurations[1].name", 12);
        fails(
                valid(
                        "  - { name: none, cpuControl: none }\n  - { name: dynamic, cpuControl: dynamic, interruptSteering: on, controlIntervalSeconds: 2 }\n",
                        ""),
                "configurations",
                10,
                "is empty; give the configurations to compare");
        fails(
                valid(
                        "configurations:\n  - { name: none, cpuControl: none }\n  - { name: dynamic, cpuControl: dynamic, interruptSteering: on, controlIntervalSeconds: 2 }\n",
                        ""),
                "configurations",
                1,
                "is missing");
        fails(
                valid("load:", "baseline: static\nload:"),
                "baseline",
                13,
                "'static' is not a configuration of this experiment; use one of none, dynamic");
    }

    @Test
    void aConfigurationRunsAScenarioOfItsOwn() throws Exception {
        // scenario 1 without control, scenario 3 under static: one file, so the scenarios interleave
        Experiment e = read(valid("  highTenants: 1\n", "  highTenants: 0\n")
                .replace("{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 0 }")
                .replace("controlIntervalSeconds: 2 }", "controlIntervalSeconds: 2, highTenants: 2 }"));
        Tenancy t = e.tenancy().orElseThrow();
        assertEquals(
                List.of(false, false, false),
                t.tenants().stream().map(TenantPlan::high).toList(),
                "the tenants as written: highTenants 0");
        List<TenantPlan> one = t.tenantsUnder(t.configuration("none"));
        assertEquals(
                List.of(100.0, 100.0, 100.0),
                one.stream().map(TenantPlan::requestsPerSecond).toList());
        List<TenantPlan> three = t.tenantsUnder(t.configuration("dynamic"));
        assertEquals(
                List.of(100.0, 1000.0, 1000.0),
                three.stream().map(TenantPlan::requestsPerSecond).toList());
        assertEquals(List.of(4, 8, 8), three.stream().map(TenantPlan::threads).toList());
        assertEquals(
                List.of(false, true, true), three.stream().map(TenantPlan::high).toList());
        assertEquals(OptionalLong.of(50), three.get(2).responseTimeGoalMs());
        assertEquals(
                t.tenants().stream().map(p -> p.definition().port()).toList(),
                three.stream().map(p -> p.definition().port()).toList(),
                "the same containers under every configuration");
        Experiment again = read(e.toYaml());
        assertSameTenancy(e, again);
        assertEquals(e.toYaml(), again.toYaml());
        Tenancy u = again.tenancy().orElseThrow();
        for (String c : List.of("none", "dynamic")) {
            assertEquals(
                    t.tenantsUnder(t.configuration(c)).stream()
                            .map(p -> p.requestsPerSecond() + "/" + p.threads() + "/" + p.high())
                            .toList(),
                    u.tenantsUnder(u.configuration(c)).stream()
                            .map(p -> p.requestsPerSecond() + "/" + p.threads() + "/" + p.high())
                            .toList(),
                    c + " after toYaml");
        }
        // and the leaving out: the tenants' own scenario
        Tenancy own = read(VALID).tenancy().orElseThrow();
        assertEquals(own.tenants(), own.tenantsUnder(own.configuration("none")));
    }

    @Test
    void tenantsWhoseThreadsCannotSendTheirRateAtTheirGoalAreNamed() throws Exception {
        assertEquals(
                List.of("tenant-3 (under none, dynamic): 8 threads answering at its goal of 50 ms send at most 160/s of"
                        + " the 1000/s asked; give it at least 50 threads (rate x response time)"),
                read(VALID).tenancy().orElseThrow().threadShortfalls());
        assertEquals(
                List.of(),
                read(valid("high: { threads: 8,", "high: { threads: 50,"))
                        .tenancy()
                        .orElseThrow()
                        .threadShortfalls(),
                "50 threads at 50 ms send 1000/s");
        assertEquals(
                List.of("tenant-3 (under none, dynamic): 49 threads answering at its goal of 50 ms send at most 980/s"
                        + " of the 1000/s asked; give it at least 50 threads (rate x response time)"),
                read(valid("high: { threads: 8,", "high: { threads: 49,"))
                        .tenancy()
                        .orElseThrow()
                        .threadShortfalls());
        // only where a configuration's scenario gives the load
        assertEquals(
                List.of(
                        "tenant-2 (under dynamic): 8 threads answering at its goal of 50 ms send at most 160/s of the"
                                + " 1000/s asked; give it at least 50 threads (rate x response time)",
                        "tenant-3 (under dynamic): 8 threads answering at its goal of 50 ms send at most 160/s of the"
                                + " 1000/s asked; give it at least 50 threads (rate x response time)"),
                read(valid("{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 0 }")
                                .replace("controlIntervalSeconds: 2 }", "controlIntervalSeconds: 2, highTenants: 2 }"))
                        .tenancy()
                        .orElseThrow()
                        .threadShortfalls());
    }

    @Test
    void aConfigurationsScenarioAtAndBeyondItsLimits() throws Exception {
        fails(
                valid("{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 4 }"),
                "configurations[0].highTenants",
                11,
                "4 is above the tenants' count (3); give how many of them run high, 0 to 3");
        Tenancy allHigh = read(valid(
                        "{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 3 }"))
                .tenancy()
                .orElseThrow();
        assertEquals(
                3,
                allHigh.tenantsUnder(allHigh.configuration("none")).stream()
                        .filter(TenantPlan::high)
                        .count());
        fails(
                valid("{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: -1 }"),
                "configurations[0].highTenants",
                11,
                "below 0");
        fails(
                valid("{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: two }"),
                "configurations[0].highTenants",
                11);
        // no high: to hand out (lines: the high: line gone, none is line 10)
        fails(
                valid("  highTenants: 1\n", "  highTenants: 0\n")
                        .replace("  high: { threads: 8, requestsPerSecond: 1000, responseTimeGoalMs: 50 }\n", "")
                        .replace(
                                "{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 1 }"),
                "configurations[0].highTenants",
                10,
                "1 high tenant needs tenants.high");
        // no low: to hand out
        fails(
                valid("  highTenants: 1\n", "  highTenants: 3\n")
                        .replace("  low: { threads: 4, requestsPerSecond: 100 }\n", "")
                        .replace(
                                "{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 1 }"),
                "configurations[0].highTenants",
                10,
                "2 low tenants need tenants.low");
        // tenants written out each have their own load: nothing to hand out
        fails(
                written("{ name: none }", "{ name: none, highTenants: 1 }"),
                "configurations[0].highTenants",
                10,
                "needs the tenants written as a scenario");
        // a high: only a configuration uses is used
        fails(
                valid("  highTenants: 1\n", "  highTenants: 0\n"),
                "tenants.high",
                9,
                "is not used: highTenants is 0",
                "here or in a configuration");
        // its threads are checked against users as the tenants' own are
        fails(
                valid("  highTenants: 1\n", "  highTenants: 0\n  users: 6\n")
                        .replace(
                                "{ name: none, cpuControl: none }", "{ name: none, cpuControl: none, highTenants: 1 }"),
                "tenants.high.threads",
                10,
                "8 threads are above tenants.users (6)");
    }

    @Test
    void whatAMultiTenantExperimentCannotHave() throws Exception {
        fails(
                valid("load:", "environments:\n  - { name: bare, placement: bare }\nload:"),
                "environments",
                13,
                "remove environments:");
        fails(
                ExperimentFileErrorsTest.VALID.replace("load:", "configurations:\n  - { name: none }\nload:"),
                "configurations",
                9,
                "only goes with tenants:");
        fails(valid("target: daytrader", "target: nginx-static"), "target", 2, "has no db.sh", "use target: daytrader");
        fails(valid("target: daytrader\n", ""), "target", 1, "is missing; a multi-tenant experiment names the target");
        fails(
                valid(
                        "  plan: ../testplans/daytrader.jmx\n  warmupSeconds: 5\n  durationSeconds: 20\n",
                        "  http: { path: /daytrader/config, durationSeconds: 5 }\n"),
                "load",
                13,
                "with its own thread group of a JMeter plan");
        fails(
                valid("../testplans/daytrader.jmx", "../testplans/http-load.jmx"),
                "load.plan",
                14,
                "has 2 thread groups; a multi-tenant plan has exactly one");
    }

    /** A multi-tenant experiment's criteria name a tenant under a configuration; a bare configuration is refused, listing them. */
    @Test
    void criteriaNameATenantUnderAConfiguration() throws Exception {
        Experiment e = read(
                valid(
                        "  durationSeconds: 20\n",
                        "  durationSeconds: 20\ncriteria:\n  - p90(dynamic/tenant-1) <= p90(none/tenant-1)\n"
                                + "  - errorPct(*) < 1\n  - throughput(dynamic/tenant-3, login) >= 0.9 * throughput(none/tenant-3, login)\n"));
        assertEquals(
                List.of(
                        "p90(dynamic/tenant-1) <= p90(none/tenant-1)",
                        "errorPct(*) < 1",
                        "throughput(dynamic/tenant-3, login) >= 0.9 * throughput(none/tenant-3, login)"),
                e.criteria().stream().map(Criterion::text).toList());
        assertEquals(
                List.of(
                        "none/tenant-1",
                        "none/tenant-2",
                        "none/tenant-3",
                        "dynamic/tenant-1",
                        "dynamic/tenant-2",
                        "dynamic/tenant-3"),
                e.tenancy().orElseThrow().criterionNames());
        assertEquals(e.criteria(), read(e.toYaml()).criteria(), "round trip");
        fails(
                valid("  durationSeconds: 20\n", "  durationSeconds: 20\ncriteria:\n  - errorPct(none) < 1\n"),
                "criteria[0]",
                18,
                "'none' is not an environment of this experiment; use none/tenant-1, none/tenant-2, none/tenant-3, dynamic/tenant-1");
        fails(
                valid("  durationSeconds: 20\n", "  durationSeconds: 20\ncriteria:\n  - p90(static/tenant-1) < 50\n"),
                "criteria[0]",
                18,
                "'static/tenant-1' is not an environment");
    }

    static void assertSameTenancy(Experiment a, Experiment b) {
        ExperimentFileTest.assertSameExperiment(a, b);
        Tenancy x = a.tenancy().orElseThrow();
        Tenancy y = b.tenancy().orElseThrow();
        assertEquals(x.cpus(), y.cpus());
        assertEquals(x.users(), y.users());
        assertEquals(x.quotes(), y.quotes());
        assertEquals(x.configurations(), y.configurations());
        assertEquals(x.low(), y.low());
        assertEquals(x.high(), y.high());
        assertEquals(x.tenants().size(), y.tenants().size());
        for (int i = 0; i < x.tenants().size(); i++) {
            TenantPlan p = x.tenants().get(i);
            TenantPlan q = y.tenants().get(i);
            assertEquals(p.name(), q.name());
            assertEquals(p.threads(), q.threads());
            assertEquals(p.requestsPerSecond(), q.requestsPerSecond());
            assertEquals(p.responseTimeGoalMs(), q.responseTimeGoalMs());
            assertEquals(p.high(), q.high());
            assertEquals(p.definition().port(), q.definition().port());
            assertEquals(
                    p.definition().options().toString(),
                    q.definition().options().toString());
        }
    }
}

package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.ResultFiles;
import io.envbench.measure.results.Sample;
import io.envbench.study.tenants.TimelineFile;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A short multi-tenant experiment through {@code envbench run}, for real: two DayTrader tenants in containers on the
 * bridge (targets/daytrader, each its own database on the host's PostgreSQL), one repetition of two configurations
 * ({@code none}, and {@code dynamic} with interrupt steering: study 004's (docs/studies.md#study-004) controller
 * through CpuControlFactory), one JMeter run per configuration with a thread group per tenant. Proves each
 * tenant's samples are there and tagged with it, by its own threads; each database was rebuilt before each run (the
 * first run's orders gone, as counted by db.sh and by the orders' dates); the timeline has the control's start and
 * stop inside the run, and under dynamic each tenant pinned and put back, IRQs and veths steered, host settings put back; the per-tenant table has every tenant; nothing labelled is left. No throughput is asserted
 * (DayTrader's JIT needs minutes); the figures are printed.
 */
@Isolated
class MultiTenantRunTest extends DockerEndToEndTest {
    static final Path DAYTRADER = Jmeter.ROOT.resolve("targets/daytrader");
    static final int USERS = 20;

    @BeforeAll
    static void assembled() throws Exception {
        assertEquals(
                0,
                DaytraderTargetTest.run(List.of(DAYTRADER.resolve("assemble.sh").toString(), "--check"))
                        .exitCode(),
                "DayTrader is not assembled in " + DAYTRADER.resolve("dist")
                        + ": run ./envbench setup (or targets/daytrader/assemble.sh)");
    }

    @Test
    void everyTenantIsLoadedTaggedAndRebuiltAndNothingIsLeft() throws Exception {
        Path file = dir.resolve("mt.yaml");
        Files.writeString(file, """
                name: multi-tenant-e2e
                target: daytrader
                port: 18391
                readyTimeoutSeconds: 120
                tenants:
                  cpus: 2
                  users: %d
                  quotes: 50
                  each:
                    - { threads: 2, requestsPerSecond: 15 }
                    - { name: tenant-2, threads: 3, requestsPerSecond: 0, responseTimeGoalMs: 200 }
                configurations:
                  - { name: none, cpuControl: none, interruptSteering: off }
                  - { name: dynamic, cpuControl: dynamic, interruptSteering: on, controlIntervalSeconds: 1 }
                repetitions: 1
                load:
                  plan: %s
                  warmupSeconds: 2
                  durationSeconds: 7
                criteria:
                  - errorPct(*) < 1
                  - throughput(dynamic/tenant-2, buy) > 0
                """.formatted(USERS, Jmeter.ROOT.resolve("testplans/daytrader.jmx")));
        Path out = dir.resolve("run");
        Path console = dir.resolve("console.txt");
        long t0 = System.nanoTime();
        int exit = Cli.run(console, 600, "run", file.toString(), "-o", out.toString());
        String text = Files.readString(console);
        System.out.println(text);
        System.out.printf("multi-tenant run of 2 tenants x 2 configurations: %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertEquals(0, exit, text);

        // criteria on a tenant under a configuration, evaluated on the tenants' figures; both pass, so the exit is 0
        assertTrue(text.contains("Criteria (on the medians of the runs):"), text);
        assertTrue(text.contains("PASS errorPct(*) < 1") && text.contains("dynamic/tenant-2"), text);
        assertTrue(text.lines().anyMatch(l -> l.contains("PASS throughput(dynamic/tenant-2, buy)")), text);
        String junit = Files.readString(out.resolve("junit.xml"));
        assertTrue(
                junit.contains("name=\"throughput(dynamic/tenant-2, buy) &gt; 0\"") && junit.contains("failures=\"0\""),
                junit);

        List<CSVRecord> runs = csv(out.resolve("runs.csv"));
        assertEquals(
                List.of("none", "dynamic"),
                runs.stream().map(r -> r.get("environment")).toList(),
                "the configurations interleaved");
        runs.forEach(r -> assertEquals("ok", r.get("status"), r.toString()));

        Map<String, Map<String, Long>> buys = new HashMap<>(); // run -> tenant -> successful buys
        for (String run : List.of("none-r1", "dynamic-r1")) {
            Path jtl = out.resolve("jtl/" + run + ".jtl.gz");
            List<Sample> samples = new ArrayList<>();
            JtlReader.read(jtl, samples::add);
            assertEquals(
                    Set.of("tenant-1", "tenant-2"),
                    new LinkedHashSet<>(
                            samples.stream().map(Sample::environment).toList()),
                    run + ": every sample tagged with its tenant, both tenants loaded");
            assertEquals(
                    List.of(),
                    samples.stream().filter(s -> !s.success()).limit(3).toList(),
                    run + ": every page the right DayTrader page");
            // each tenant's own thread group: tenant-1 two threads, tenant-2 three
            Map<String, Set<String>> threads = new HashMap<>();
            for (CSVRecord r : csv(jtl)) {
                threads.computeIfAbsent(r.get(JtlReader.ENV_COLUMN), t -> new LinkedHashSet<>())
                        .add(r.get("threadName"));
            }
            assertEquals(2, threads.get("tenant-1").size(), run + ": tenant-1's threads " + threads.get("tenant-1"));
            assertEquals(3, threads.get("tenant-2").size(), run + ": tenant-2's threads " + threads.get("tenant-2"));
            threads.forEach((tenant, names) ->
                    names.forEach(n -> assertTrue(n.startsWith(tenant + ": "), run + ": " + n + " runs " + tenant)));
            Map<String, Long> b = new HashMap<>();
            samples.stream()
                    .filter(s -> s.label().equals("buy") && s.success())
                    .forEach(s -> b.merge(s.environment(), 1L, Long::sum));
            buys.put(run, b);

            List<TimelineFile.Row> timeline = TimelineFile.read(out.resolve("timeline/" + run + ".csv"));
            List<String> actions =
                    timeline.stream().map(TimelineFile.Row::action).toList();
            assertTrue(actions.stream().anyMatch(a -> a.startsWith("control started: ")), run + ": " + actions);
            assertTrue(actions.contains("control stopped"), run + ": " + actions);
            assertEquals(
                    2,
                    actions.stream().filter(a -> a.equals("database rebuilt")).count(),
                    run + ": " + actions);
            if (run.startsWith("dynamic")) {
                // study 004's dynamic control, for real: every tenant pinned at its start, interrupts and the tenants'
                // veths
                // steered to the free CPU, every cpuset and host setting put back at its stop
                for (String tenant : List.of("tenant-1", "tenant-2")) {
                    assertTrue(
                            timeline.stream()
                                    .anyMatch(r -> r.tenant().equals(tenant)
                                            && r.action().startsWith("pin ")),
                            run + ": " + tenant + " pinned: " + actions);
                    assertTrue(
                            timeline.stream()
                                    .anyMatch(r -> r.tenant().equals(tenant)
                                            && r.action().startsWith("cpuset back to")),
                            run + ": " + tenant + "'s cpuset put back: " + actions);
                }
                assertTrue(
                        actions.stream().anyMatch(a -> a.startsWith("steer IRQ")), run + ": IRQs steered: " + actions);
                assertTrue(
                        actions.stream().anyMatch(a -> a.startsWith("steer RPS of veth")),
                        run + ": the tenants' veths steered: " + actions);
                assertTrue(actions.contains("host settings put back"), run + ": " + actions);
                int stopped = actions.indexOf("control stopped");
                assertTrue(
                        stopped > actions.indexOf("host settings put back"),
                        run + ": put back before the control's stop is recorded");
            } else {
                assertTrue(
                        actions.stream().noneMatch(a -> a.startsWith("pin ")), run + ": none pins nothing: " + actions);
            }
            for (int i = 1; i < timeline.size(); i++) {
                assertTrue(
                        !timeline.get(i).time().isBefore(timeline.get(i - 1).time()), run + ": timeline in time order");
            }
        }

        // each run rebuilt each database: db.sh counted buildDB's orders after each rebuild, and at the end no order is
        // older than
        // the second run's start. The first rebuild made about 5 orders for each of the 20 users, most of whom no
        // thread logs in
        // as (DayTrader deletes only a logged-in user's closed orders), so only the second rebuild can have removed
        // them.
        Map<String, CSVRecord> first = byTenant(csv(out.resolve("databases/none-r1.csv")));
        Map<String, CSVRecord> second = byTenant(csv(out.resolve("databases/dynamic-r1.csv")));
        for (String tenant : List.of("tenant-1", "tenant-2")) {
            long afterFirst = Long.parseLong(first.get(tenant).get("ordersAfter"));
            long beforeSecond = Long.parseLong(second.get(tenant).get("ordersBefore"));
            assertTrue(afterFirst > USERS, tenant + ": the first rebuild made buildDB's orders: " + afterFirst);
            assertTrue(
                    beforeSecond > 0,
                    tenant + ": the first run's database was still there before the second rebuild: " + beforeSecond);
            assertTrue(buys.get("none-r1").getOrDefault(tenant, 0L) > 0, tenant + " bought in the first run");
            String database = "daytrader_" + tenant.replace('-', '_');
            String secondStart = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
                    .withZone(ZoneOffset.UTC)
                    .format(Instant.parse(runs.get(1).get("start")));
            String older =
                    psql(database, "select count(*) from orderejb where opendate < timestamp '" + secondStart + "'");
            String all = psql(database, "select count(*) from orderejb");
            assertEquals(
                    "0",
                    older,
                    tenant + ": no order older than the second run's start survived its rebuild (" + all
                            + " orders now)");
            assertTrue(Long.parseLong(all) > 0, tenant + ": buildDB's and the second run's orders are there");
        }

        // the per-tenant table: every tenant under every configuration, with CPU figures
        for (String config : List.of("none", "dynamic")) {
            for (String tenant : List.of("tenant-1", "tenant-2")) {
                assertTrue(
                        text.lines().anyMatch(l -> l.startsWith(config + " ") && l.contains(" " + tenant + " ")),
                        config + " " + tenant + ":\n" + text);
            }
        }
        List<CSVRecord> table = csv(out.resolve("report/tenants.csv"));
        assertEquals(
                List.of("tenant-1", "tenant-2", "tenant-1", "tenant-2", "host", "host"),
                table.stream().map(r -> r.get("tenant")).toList());
        for (CSVRecord r : table) {
            assertTrue(!r.get("cpuPctMean").isEmpty() && Double.parseDouble(r.get("cpuPctMean")) > 0, "CPU of " + r);
            if (!r.get("tenant").equals("host")) {
                assertTrue(Double.parseDouble(r.get("throughputMean")) > 0, "throughput of " + r);
            }
        }
        assertTrue(
                Files.readString(out.resolve("tenants.jmx")).contains("tenant-2: DayTrader users"),
                "the plan has tenant-2's thread group");
    }

    private static Map<String, CSVRecord> byTenant(List<CSVRecord> rows) {
        Map<String, CSVRecord> m = new HashMap<>();
        rows.forEach(r -> m.put(r.get("tenant"), r));
        return m;
    }

    /** A CSV file's records; a result file as kept, gzip-compressed or plain. */
    static List<CSVRecord> csv(Path file) throws Exception {
        try (CSVParser p = CSVParser.parse(
                ResultFiles.reader(file),
                CSVFormat.DEFAULT
                        .builder()
                        .setHeader()
                        .setSkipHeaderRecord(true)
                        .setCommentMarker('#')
                        .build())) {
            return p.getRecords();
        }
    }

    static String psql(String database, String sql) throws Exception {
        DaytraderTargetTest.Result r = DaytraderTargetTest.run(List.of(
                "runuser", "-u", "postgres", "--", "psql", "-X", "-At", "-p", "5433", "-d", database, "-c", sql));
        assertEquals(0, r.exitCode(), r.output());
        return r.output().strip();
    }
}

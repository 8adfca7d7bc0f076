package io.envbench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.envbench.base.units.LocalPorts;
import io.envbench.launch.docker.DockerRequired;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * targets/daytrader/db.sh on the real host's PostgreSQL, with a cluster and state folder of the test's own (so the
 * cluster DayTrader uses is never dropped): the cluster it makes is written down before it is made, listens on
 * loopback and the bridge's gateway only, admits tenants from those networks only, gives a tenant a database with
 * DayTrader's tables, and {@code restore} removes all of it, leaving the host's other clusters as they were.
 */
@BesideOthers("a PostgreSQL cluster of its own on port 5499, removed before it ends")
class DaytraderDatabaseTest {
    static final Path DB_SH = Jmeter.ROOT.resolve("targets/daytrader/db.sh");
    static final String CLUSTER = "envbench_test";
    static final int PORT = 5499;

    @TempDir
    Path dir;

    @Test
    void theClusterIsWrittenDownListensOnLoopbackAndTheBridgeOnlyAndRestoreRemovesIt() throws Exception {
        DockerRequired.require(
                "root".equals(System.getProperty("user.name")),
                "root (to make a PostgreSQL cluster)",
                "db.sh runs pg_createcluster");
        LocalPorts.checkFree("port", PORT);
        Path state = dir.resolve("state");
        Map<String, String> env = Map.of(
                "DAYTRADER_PG_CLUSTER",
                CLUSTER,
                "DB_PORT",
                Integer.toString(PORT),
                "DAYTRADER_DB_STATE",
                state.toString());
        List<String> othersBefore = otherClusters();
        try {
            // tenants are set up at once: three creates on a host without the cluster make it once and all succeed
            createAtOnce(env, "probe", "probe_2", "probe_3");
            assertEquals(
                    List.of("cluster 15/" + CLUSTER),
                    Files.readAllLines(state.resolve("host-changes")),
                    "written down");

            String gateway = DaytraderTargetTest.bridgeGateway();
            assertEquals(
                    "127.0.0.1," + gateway, psql("show listen_addresses"), "loopback and the bridge's gateway only");
            List<String> hba = Files.readAllLines(Path.of("/etc/postgresql/15", CLUSTER, "pg_hba.conf")).stream()
                    .filter(l -> l.startsWith("host"))
                    .toList();
            String bridge = DaytraderTargetTest.run(
                            List.of("ip", "-4", "route", "show", "dev", "docker0", "proto", "kernel"))
                    .output()
                    .split("\\s+")[0];
            assertEquals(
                    List.of("host all all 127.0.0.1/32 scram-sha-256", "host all all " + bridge + " scram-sha-256"),
                    hba,
                    "tenants from loopback and the bridge only");

            // and on a stopped cluster (a machine restarted since): one start, three databases
            DaytraderTargetTest.Result stop = DaytraderTargetTest.run(List.of("pg_ctlcluster", "15", CLUSTER, "stop"));
            assertEquals(0, stop.exitCode(), stop.output());
            createAtOnce(env, "probe", "probe_4", "probe_5");
            DaytraderTargetTest.Result lockFree = DaytraderTargetTest.run(
                    List.of("flock", "-n", "/run/lock/envbench-daytrader-db-15-" + CLUSTER + ".lock", "true"));
            assertEquals(0, lockFree.exitCode(), "the started server does not hold db.sh's lock: " + lockFree.output());
            assertEquals(
                    "6",
                    psql("select count(*) from pg_tables where tableowner = 'daytrader_probe'", "daytrader_probe"),
                    "DayTrader's six tables, owned by the tenant's role");

            long t0 = System.nanoTime();
            DaytraderTargetTest.Result bad = run(env, "create", "../x");
            assertEquals(1, bad.exitCode());
            assertTrue(bad.output().contains("NAME '../x' must be 1 to 40 of a-z, 0-9, _"), bad.output());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 5000, "refused at once");
        } finally {
            DaytraderTargetTest.Result restore = run(env, "restore");
            assertEquals(0, restore.exitCode(), restore.output());
        }
        assertFalse(Files.exists(Path.of("/etc/postgresql/15", CLUSTER)), "its configuration removed");
        assertFalse(Files.exists(Path.of("/var/lib/postgresql/15", CLUSTER)), "its data removed");
        assertFalse(Files.exists(state.resolve("host-changes")), "nothing left to restore");
        assertEquals(othersBefore, otherClusters(), "the host's other clusters as they were");
    }

    /** db.sh create of each name at the same moment: every one succeeds and has its database. */
    static void createAtOnce(Map<String, String> env, String... names) throws Exception {
        List<CompletableFuture<DaytraderTargetTest.Result>> creates = new ArrayList<>();
        for (String name : names) {
            creates.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return run(env, "create", name);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        for (int i = 0; i < names.length; i++) {
            DaytraderTargetTest.Result r = creates.get(i).get(3, TimeUnit.MINUTES);
            assertEquals(0, r.exitCode(), "create " + names[i] + " beside the others: " + r.output());
            assertEquals("1", psql("select count(*) from pg_database where datname = 'daytrader_" + names[i] + "'"));
        }
    }

    /** pg_lsclusters without the test's cluster. */
    static List<String> otherClusters() throws Exception {
        return DaytraderTargetTest.run(List.of("pg_lsclusters", "-h"))
                .output()
                .lines()
                .filter(l -> !l.contains(" " + CLUSTER + " "))
                .toList();
    }

    static String psql(String sql) throws Exception {
        return psql(sql, "postgres");
    }

    static String psql(String sql, String db) throws Exception {
        DaytraderTargetTest.Result r = DaytraderTargetTest.run(List.of(
                "runuser",
                "-u",
                "postgres",
                "--",
                "psql",
                "-X",
                "-At",
                "-p",
                Integer.toString(PORT),
                "-d",
                db,
                "-c",
                sql));
        assertEquals(0, r.exitCode(), r.output());
        return r.output().trim();
    }

    static DaytraderTargetTest.Result run(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(DB_SH.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), cmd + " did not end");
        return new DaytraderTargetTest.Result(p.exitValue(), out);
    }
}

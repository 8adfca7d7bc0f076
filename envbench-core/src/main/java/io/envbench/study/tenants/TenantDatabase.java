package io.envbench.study.tenants;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.envbench.base.process.ProcessFileLock;
import io.envbench.study.experiment.TenantPlan;

/**
 * A tenant's database on the host's PostgreSQL, through its target's {@code db.sh} (targets/daytrader's: EnvBench's
 * own cluster, a database {@code daytrader_tenant_N} per tenant): made once, and rebuilt before every run through the
 * tenant's own running DayTrader ({@code config?action=buildDBTables}, then {@code buildDB}), so the order table never
 * grows from run to run. Each step is bounded in time; a failure is an {@link IOException} with db.sh's last lines.
 */
public final class TenantDatabase {
    /** The longest a db.sh step may take (a rebuild of 200 users takes 3-5 s on 2 cores). */
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(300);

    private final Path script;

    /** @param targetDir the target's folder (its {@code db.sh}) */
    public TenantDatabase(Path targetDir) {
        this.script = targetDir.resolve("db.sh");
    }

    /**
     * What a rebuild found and left.
     *
     * @param ordersBefore orders in the database before the rebuild (the previous run's and buildDB's)
     * @param ordersAfter  orders after it (buildDB's own)
     * @param took         the rebuild's length
     */
    public record Rebuilt(long ordersBefore, long ordersAfter, Duration took) {}

    /** Makes the tenant's database and role when missing (idempotent; the cluster is started when down). */
    public void create(TenantPlan tenant) throws IOException {
        run(List.of("create", tenant.databaseSuffix()));
    }

    /** Orders in the tenant's database now. */
    public long orders(TenantPlan tenant) throws IOException {
        String out = run(List.of("orders", tenant.databaseSuffix())).strip();
        String last = out.lines().reduce((a, b) -> b).orElse("");
        try {
            return Long.parseLong(last.strip());
        } catch (NumberFormatException e) {
            throw new IOException(script + " orders " + tenant.databaseSuffix() + " printed no count: " + out);
        }
    }

    /** Fresh tables through the tenant's DayTrader at {@code baseUrl} ({@code http://127.0.0.1:PORT}): users and quotes. */
    public Rebuilt rebuild(TenantPlan tenant, String baseUrl, int users, int quotes) throws IOException {
        create(tenant);
        long before = orders(tenant);
        long t0 = System.nanoTime();
        run(List.of("rebuild", tenant.databaseSuffix(), baseUrl, Integer.toString(users), Integer.toString(quotes)));
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        return new Rebuilt(before, orders(tenant), took);
    }

    /**
     * The tenants' databases, held by this process until closed, so that two runs at once (two experiments, a JMeter
     * GUI and {@code envbench run}) never rebuild each other's database mid-run: one lock file per database in
     * {@code folder}, locked with the operating system's file lock (released by the kernel however the process ends,
     * so a killed run leaves no claim behind) and naming its holder.
     *
     * @throws IOException naming the database, the run that holds it and what to do, when one is held already;
     *                     nothing is held then
     */
    public static Claim claim(List<TenantPlan> tenants, Path folder) throws IOException {
        Files.createDirectories(folder);
        List<ProcessFileLock> held = new ArrayList<>();
        try {
            for (TenantPlan t : tenants) {
                Path file = folder.resolve(t.database() + ".lock");
                ProcessFileLock.Attempt a = ProcessFileLock.tryLock(file);
                if (a.busy().equals(Optional.of(ProcessFileLock.Busy.IN_THIS_PROCESS))) {
                    throw new IOException(
                            "database " + t.database() + " of " + t.name() + " is in use by another run in this "
                                    + "process; wait for it to end, or run one multi-tenant experiment at a time on this host");
                }
                if (a.lock().isEmpty()) {
                    throw new IOException(
                            "database " + t.database() + " of " + t.name() + " is in use by another EnvBench run ("
                                    + (a.holder().isEmpty() ? "unknown" : a.holder())
                                    + "); wait for it to end, or run one multi-tenant experiment at a time "
                                    + "on this host (the tenants' databases are shared: "
                                    + file.toAbsolutePath().normalize()
                                    + ")");
                }
                held.add(a.lock().get());
                a.lock()
                        .get()
                        .describeHolder("pid " + ProcessHandle.current().pid() + ", since "
                                + Instant.now().truncatedTo(ChronoUnit.SECONDS));
            }
        } catch (IOException | RuntimeException e) {
            held.forEach(ProcessFileLock::close);
            throw e;
        }
        return () -> held.forEach(ProcessFileLock::close);
    }

    /** Where {@link #claim} keeps its lock files by default: one folder per host, for every user of EnvBench. */
    public static Path defaultClaimFolder() {
        return Path.of(System.getProperty("java.io.tmpdir"), "envbench-tenant-databases");
    }

    /** The tenants' databases held by this process; closing lets them go. */
    public interface Claim extends AutoCloseable {
        @Override
        void close();
    }

    private String run(List<String> args) throws IOException {
        if (!Files.isExecutable(script)) {
            throw new IOException(
                    script + " is missing or not executable; a tenant target needs its db.sh (targets/daytrader)");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(script.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] output;
        try {
            output = p.getInputStream().readAllBytes();
            if (!p.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(
                        "db.sh " + String.join(" ", args) + " did not end within " + STEP_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("db.sh " + String.join(" ", args) + " interrupted");
        }
        String out = new String(output, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            List<String> lines = out.lines().toList();
            throw new IOException("db.sh " + String.join(" ", args) + " failed (exit " + p.exitValue() + "): "
                    + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
        }
        return out;
    }
}

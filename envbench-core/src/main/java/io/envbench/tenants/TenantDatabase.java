package io.envbench.tenants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.envbench.experiment.TenantPlan;

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
    public record Rebuilt(long ordersBefore, long ordersAfter, Duration took) {
    }

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

    private String run(List<String> args) throws IOException {
        if (!Files.isExecutable(script)) {
            throw new IOException(script + " is missing or not executable; a tenant target needs its db.sh (targets/daytrader)");
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
                throw new IOException("db.sh " + String.join(" ", args) + " did not end within " + STEP_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("db.sh " + String.join(" ", args) + " interrupted");
        }
        String out = new String(output, java.nio.charset.StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            List<String> lines = out.lines().toList();
            throw new IOException("db.sh " + String.join(" ", args) + " failed (exit " + p.exitValue() + "): "
                    + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
        }
        return out;
    }
}

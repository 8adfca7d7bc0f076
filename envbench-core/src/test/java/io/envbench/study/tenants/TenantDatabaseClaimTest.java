package io.envbench.study.tenants;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import io.envbench.base.container.ContainerOptions;
import io.envbench.base.definition.EnvironmentDefinition;
import io.envbench.study.experiment.TenantPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runs never share the tenants' databases: a claim held by another process (a real second JVM) or by another run
 * in this one is refused with a message naming the database and its holder, and a claim of a process killed with
 * SIGKILL is gone at once (the kernel's file lock ends with the process).
 */
class TenantDatabaseClaimTest {
    @TempDir
    Path dir;

    static List<TenantPlan> tenants(String... names) {
        return Arrays.stream(names)
                .map(n -> new TenantPlan(
                        n,
                        new EnvironmentDefinition(
                                n,
                                "daytrader",
                                EnvironmentDefinition.Placement.DOCKER,
                                ContainerOptions.builder().build(),
                                18100,
                                Duration.ofSeconds(60)),
                        4,
                        100,
                        OptionalLong.empty(),
                        false))
                .toList();
    }

    @Test
    void aSecondRunInThisProcessIsRefusedAndTheFirstKeepsItsClaimUntilClosed() throws Exception {
        try (TenantDatabase.Claim first = TenantDatabase.claim(tenants("tenant-1", "tenant-2"), dir)) {
            IOException e =
                    assertThrows(IOException.class, () -> TenantDatabase.claim(tenants("tenant-3", "tenant-2"), dir));
            assertTrue(
                    e.getMessage().startsWith("database daytrader_tenant_2 of tenant-2 is in use by another run"),
                    e.getMessage());
            // the refused claim let go of tenant-3, which it had taken first
            TenantDatabase.claim(tenants("tenant-3"), dir).close();
        }
        TenantDatabase.claim(tenants("tenant-1", "tenant-2"), dir).close(); // closed: free again
    }

    @Test
    void anotherProcesssClaimIsRefusedNamingItsPidAndEndsWithItsSigkill() throws Exception {
        Process other = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Holder.class.getName(),
                        dir.toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue("held".equals(line), "the other JVM holds the claim: " + line);
            IOException e = assertThrows(IOException.class, () -> TenantDatabase.claim(tenants("tenant-1"), dir));
            assertTrue(
                    e.getMessage().contains("in use by another EnvBench run (pid " + other.pid() + ", since "),
                    e.getMessage());
            assertTrue(e.getMessage().contains("wait for it to end"), e.getMessage());
            other.destroyForcibly(); // SIGKILL: no finally, no shutdown hook
            assertTrue(other.waitFor(10, TimeUnit.SECONDS));
            TenantDatabase.claim(tenants("tenant-1"), dir).close();
        } finally {
            other.destroyForcibly();
        }
    }

    /** The other run: claims tenant-1's database, says so, and waits to be killed. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            TenantDatabase.claim(tenants("tenant-1"), Path.of(args[0]));
            System.out.println("held");
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}

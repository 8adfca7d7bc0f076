package io.envbench.study.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan of a multi-tenant run made from testplans/daytrader.jmx: a thread group per tenant reading its own
 * properties, the Environment Tag and HTTP defaults inside each, the plan-wide assertion once; a plan of two thread
 * groups is refused. (MultiTenantRunTest runs such a plan in the real JMeter.)
 */
class TenantsPlanTest {
    static final Path DAYTRADER =
            Path.of("..", "testplans", "daytrader.jmx").toAbsolutePath().normalize();

    @Test
    void aThreadGroupPerTenantEachReadingItsOwnProperties(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("tenants.jmx");
        TenantsPlan.write(DAYTRADER, List.of("tenant-1", "tenant-2", "tenant-3"), out);
        String plan = Files.readString(out);
        assertEquals(
                List.of("tenant-1: DayTrader users", "tenant-2: DayTrader users", "tenant-3: DayTrader users"),
                all(plan, "<ThreadGroup [^>]*testname=\"([^\"]*)\""));
        for (String x :
                List.of("threads", "host", "port", "run.environment", "rate.per.minute", "daytrader.first.user")) {
            assertEquals(0, count(plan, "__P(envbench." + x + ","), "no plain envbench." + x + " is read any more");
            for (String t : List.of("tenant-1", "tenant-2", "tenant-3")) {
                assertTrue(count(plan, "__P(envbench." + t + "." + x + ",") >= 1, t + " reads its own " + x);
            }
        }
        assertEquals(
                3,
                count(plan, "io.envbench.jmeter.modifiers.EnvironmentTag\" testname"),
                "an Environment Tag in each thread group");
        assertEquals(
                1,
                count(plan, "testname=\"no DayTrader error page (every sample)\""),
                "the plan-wide assertion stays once");
        assertEquals(3, count(plan, "testname=\"login\""), "each tenant has the whole session");
        assertEquals(
                3,
                count(plan, "__P(envbench.duration.seconds,"),
                "the run's length is shared: each thread group reads the one");
        // the same structure JMeter reads: an element, then its hashTree
        Path again = dir.resolve("again.jmx");
        TenantsPlan.write(DAYTRADER, List.of("tenant-1"), again);
        assertEquals(
                List.of("tenant-1: DayTrader users"),
                all(Files.readString(again), "<ThreadGroup [^>]*testname=\"([^\"]*)\""));
    }

    @Test
    void eachTenantsPropertiesAreItsOwn() {
        assertEquals("envbench.tenant-2.port", TenantsPlan.property("tenant-2", "port"));
    }

    @Test
    void aPlanOfTwoThreadGroupsIsRefused(@TempDir Path dir) {
        Path httpLoad =
                Path.of("..", "testplans", "http-load.jmx").toAbsolutePath().normalize();
        var e = assertThrows(
                IOException.class, () -> TenantsPlan.write(httpLoad, List.of("tenant-1"), dir.resolve("x.jmx")));
        assertTrue(e.getMessage().contains("has more than one ThreadGroup"), e.getMessage());
    }

    static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    static List<String> all(String s, String regex) {
        Matcher m = Pattern.compile(regex).matcher(s);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}

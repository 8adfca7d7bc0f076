package io.envbench.jmeter.cpucontrol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.study.cpucontrol.CpuControlMode;
import io.envbench.study.cpucontrol.FloatingCpus;
import io.envbench.study.steering.IrqBalancePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The CPU Control's fields become the core's settings; each wrong field is named with its GUI label and a fix. */
class CpuControlFieldsTest {
    private static CpuControlFields parse(
            String mode,
            String interval,
            String high,
            String goals,
            String cpus,
            String irq,
            String balance,
            String rps) {
        return parse(mode, interval, high, goals, cpus, irq, balance, rps, "unpinned");
    }

    private static CpuControlFields parse(
            String mode,
            String interval,
            String high,
            String goals,
            String cpus,
            String irq,
            String balance,
            String rps,
            String floating) {
        return CpuControlFields.parse(mode, interval, high, goals, cpus, irq, balance, rps, floating);
    }

    @Test
    void fieldsBecomeSettings() {
        CpuControlFields f =
                parse(" Dynamic ", "1", "tenant-3, tenant-2", "tenant-1=200,tenant-2=1500", "2", "on", "pause", "off");
        assertEquals(CpuControlMode.DYNAMIC, f.settings().mode());
        assertEquals(Duration.ofSeconds(1), f.settings().interval());
        assertEquals(2, f.settings().cpusPerTenant());
        assertEquals(Set.of("tenant-3", "tenant-2"), f.highTenants());
        assertEquals(Map.of("tenant-1", Duration.ofMillis(200), "tenant-2", Duration.ofMillis(1500)), f.goals());
        assertTrue(f.interruptSteering());
        assertEquals(IrqBalancePolicy.PAUSE, f.irqBalance());
        assertFalse(f.receiveSteering());
        assertEquals(FloatingCpus.UNPINNED, f.settings().floating());
        assertEquals(
                FloatingCpus.SPARE,
                parse("static", "2", "", "", "1", "off", "refuse", "off", " Spare ")
                        .settings()
                        .floating());
        assertEquals(
                Optional.of(Duration.ofMillis(200)), f.tenant("tenant-1", "abc").responseTimeGoal());
        assertEquals(Optional.empty(), f.tenant("tenant-3", "def").responseTimeGoal());
    }

    @Test
    void theDefaultsOfTheGuiAreValid() {
        CpuControlFields f = parse("dynamic", "2", "", "", "1", "off", "refuse", "off");
        assertEquals(Optional.empty(), f.settings().highTenants());
        assertEquals(Map.of(), f.goals());
    }

    @Test
    void highTenantsThatDoNotRunAreLeftOutAndSaid() {
        CpuControlFields f = parse("static", "2", "tenant-2,tenant-9", "", "1", "off", "refuse", "off");
        List<String> missing = new ArrayList<>();
        assertEquals(
                Optional.of(Set.of("tenant-2")),
                f.settingsFor(List.of("tenant-1", "tenant-2"), missing).highTenants());
        assertEquals(List.of("tenant-9"), missing);
    }

    @ParameterizedTest(name = "{0} = ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "Mode                     | fast           | choose one of none, static, dynamic",
                "Mode                     | ''             | choose one of none, static, dynamic",
                "Interval (s)             | 0              | outside 1 to 10",
                "Interval (s)             | 11             | outside 1 to 10",
                "Interval (s)             | 1.5            | not a whole number",
                "Interval (s)             | ''             | is empty",
                "Interval (s)             | 99999999999999999999 | not a whole number",
                "High tenants             | tenant 1       | no tenant name",
                "Response-time goals (ms) | tenant-1       | not TENANT=MILLISECONDS",
                "Response-time goals (ms) | tenant-1=0     | not TENANT=MILLISECONDS",
                "Response-time goals (ms) | tenant-1=fast  | not TENANT=MILLISECONDS",
                "CPUs per tenant          | 0              | outside 1 to",
                "Interrupt steering       | maybe          | choose on or off",
                "irqbalance               | kill           | refuse",
                "RPS steering             | 2              | choose on or off",
                "Floating tenants on      | anywhere       | use unpinned",
            })
    void eachWrongFieldIsNamedWithItsFix(String field, String value, String fragment) {
        String[] f = {"dynamic", "2", "", "", "1", "off", "refuse", "off", "unpinned"};
        int i = List.of(
                        CpuControlFields.MODE,
                        CpuControlFields.INTERVAL,
                        CpuControlFields.HIGH_TENANTS,
                        CpuControlFields.GOALS,
                        CpuControlFields.CPUS_PER_TENANT,
                        CpuControlFields.IRQ_STEERING,
                        CpuControlFields.IRQ_BALANCE,
                        CpuControlFields.RPS_STEERING,
                        CpuControlFields.FLOATING)
                .indexOf(field);
        assertTrue(i >= 0, field);
        f[i] = value;
        InvalidSettingException e = assertThrows(
                InvalidSettingException.class, () -> parse(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]));
        assertEquals(field, e.field());
        assertTrue(e.getMessage().startsWith(field + ": ") && e.getMessage().contains(fragment), e.getMessage());
    }
}

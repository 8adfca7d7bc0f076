package io.envbench.jmeter.samplers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.jmeter.GuiTests;
import io.envbench.study.experiment.CommandLoad;
import io.envbench.study.experiment.CommandOutput;
import org.apache.jmeter.samplers.SampleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The EnvBench Command sampler's fields, and its refusals before anything runs (the real runs: SeedCommandPlansTest). */
class CommandSamplerTest {
    private static CommandSampler sampler() {
        CommandSampler s = new CommandSampler();
        s.setName("psql");
        s.setEnvironment("same-container");
        s.setCommand(" ./psql-latency.sh  1000 10000 ");
        s.setClient("inside");
        s.setOutput("psql-time");
        s.setExpectedSeconds("20");
        return s;
    }

    @Test
    void fieldsBecomeACommandLoad() {
        CommandSampler s = sampler();
        s.setBareMemory("512m");
        CommandLoad load = s.load();
        assertEquals(List.of("./psql-latency.sh", "1000", "10000"), load.command());
        assertEquals(CommandOutput.PSQL_TIME, load.output());
        assertEquals(512L << 20, load.bareMemoryBytes().getAsLong());
        assertEquals(Duration.ofSeconds(20), load.duration());
        assertEquals(Duration.ofSeconds(140), load.deadline(), "stopped 120 s after the expected length");
        s.setOutput("bonnie++");
        assertEquals(CommandOutput.BONNIE_CSV, s.load().output());
    }

    @ParameterizedTest(name = "{0} = ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "expectedSeconds | x                    | is not a number of seconds",
                "expectedSeconds | 0                    | outside 1 to 86400",
                "expectedSeconds | 86401                | outside 1 to 86400",
                "expectedSeconds | 9223372036854775808  | is not a number of seconds",
                "expectedSeconds | -1                   | outside 1 to 86400",
                "output          | csv                  | is not an output EnvBench reads; use bonnie++, psql-time",
                "command         | '   '                | is empty; give the program and its arguments",
                "bareMemory      | 12XB                 | ",
                "bareMemory      | 1k                   | ",
            })
    void eachBadFieldIsNamed(String field, String value, String fragment) {
        CommandSampler s = sampler();
        switch (field) {
            case "expectedSeconds" -> s.setExpectedSeconds(value);
            case "output" -> s.setOutput(value);
            case "command" -> s.setCommand(value);
            case "bareMemory" -> s.setBareMemory(value);
            default -> throw new AssertionError(field);
        }
        InvalidSettingException e = assertThrows(InvalidSettingException.class, s::load);
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(fragment == null || e.getMessage().contains(fragment.trim()), e.getMessage());
    }

    /** A sample with a bad field, or for an environment that is not running, fails at once naming what to fix; nothing runs. */
    @Test
    void aSampleThatCannotRunSaysWhyWithinASecond() {
        GuiTests.initJMeter();
        assertFails(s -> s.setClient("vm"), "client: 'vm' is not a place for the command; use inside");
        assertFails(
                s -> s.setEnvironment("nope"),
                "environment: 'nope' is not running; start it first with an EnvBench Target Environment sampler");
        assertFails(
                s -> s.setEnvironment(" "),
                "environment: is empty and this thread group started no environment; name one");
        assertFails(s -> s.setExpectedSeconds("0"), "expectedSeconds: 0 is outside 1 to 86400 s");
    }

    private static void assertFails(Consumer<CommandSampler> change, String message) {
        CommandSampler s = sampler();
        change.accept(s);
        long t0 = System.nanoTime();
        SampleResult r = s.sample(null);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(r.isSuccessful());
        assertTrue(r.getResponseMessage().startsWith(message), r.getResponseMessage());
        assertEquals(SampleResults.FAILURE_CODE, r.getResponseCode());
        assertTrue(ms < 5_000, "a refusal takes no time: " + ms + " ms");
    }
}

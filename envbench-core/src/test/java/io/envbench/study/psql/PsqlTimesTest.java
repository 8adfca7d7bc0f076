package io.envbench.study.psql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.envbench.study.command.CommandOutputCheck;
import io.envbench.study.experiment.CommandOutput;
import org.junit.jupiter.api.Test;

/** psql-latency.sh's lines read into phases; output without them refused saying what was expected. */
class PsqlTimesTest {
    static final String OUTPUT = "psql insert statements=1000 elapsed_s=11.741 user_s=0.000 sys_s=0.110\n"
            + "psql select statements=10000 elapsed_s=6.258 user_s=3.160 sys_s=0.520\n";

    @Test
    void bothPhasesWithTheirThreeTimes() {
        PsqlTimes t = PsqlTimes.find("some noise\n" + OUTPUT);
        assertEquals(List.of("insert", "select"), List.copyOf(t.phases().keySet()));
        PsqlTimes.Phase select = t.phase("select").orElseThrow();
        assertEquals(10000, select.statements());
        assertEquals(6.258, select.seconds(PsqlTimes.Time.ELAPSED));
        assertEquals(3.160, select.seconds(PsqlTimes.Time.USER));
        assertEquals(0.520, select.seconds(PsqlTimes.Time.SYS));
        assertEquals(0.0, t.phase("insert").orElseThrow().userSeconds());
    }

    @Test
    void outputWithoutATimedPhaseIsRefused() {
        String m = assertThrows(
                        IllegalArgumentException.class, () -> PsqlTimes.find("psql: error: connection refused\n"))
                .getMessage();
        assertTrue(m.contains("no timed psql phase") && m.contains("psql-latency.sh"), m);
        assertThrows(
                IllegalArgumentException.class, () -> CommandOutputCheck.check(CommandOutput.PSQL_TIME, "real 0m1.0s"));
        CommandOutputCheck.check(CommandOutput.PSQL_TIME, OUTPUT);
        assertEquals(CommandOutput.PSQL_TIME, CommandOutput.parse("output", "psql-time"));
    }
}

package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import org.junit.jupiter.api.Test;

/** Which CPUs the load generator and the target get, and when they cannot have their own. */
class IsolationTest {
    private static final CpuSet TWO = CpuSet.parseList("cpu", "0-1");
    private static final String FILE = """
            name: iso
            target: nginx-static
            environments:
              - { name: bare, placement: bare }
              - { name: pinned, placement: docker, cpuset: "0" }
            load: { http: { path: /, durationSeconds: 5 } }
            """;

    private static Experiment read(String yaml) throws Exception {
        return ExperimentFile.parse(yaml, Path.of("iso.yaml"), ExperimentFileTest.TARGETS);
    }

    @Test
    void theGeneratorGetsTheLowestQuarterAtLeastOne() {
        assertEquals(new Isolation.Split(CpuSet.parseList("c", "0"), CpuSet.parseList("c", "1")), Isolation.split(TWO));
        Isolation.Split eight = Isolation.split(CpuSet.parseList("c", "0-7"));
        assertEquals("0-1", eight.generator().toString());
        assertEquals("2-7", eight.target().toString());
    }

    @Test
    void autoIsolatesWhatItCanAndSaysWhyNot() throws Exception {
        Experiment free = read(FILE.replace(", cpuset: \"0\"", ""));
        Isolation.Decision d = Isolation.AUTO.decide(free, TWO);
        assertEquals("isolated: JMeter on CPUs 0, the target and docker-proxy on 1", d.describe());
        Isolation.Decision shared = Isolation.AUTO.decide(read(FILE), TWO);
        assertTrue(shared.split().isEmpty());
        assertTrue(shared.describe().contains("environments[1] (pinned) has cpuset 0"), shared.describe());
        Isolation.Decision one = Isolation.AUTO.decide(free, CpuSet.parseList("c", "0"));
        assertTrue(one.describe().contains("one CPU online"), one.describe());
        assertTrue(Isolation.OFF.decide(free, TWO).split().isEmpty());
    }

    @Test
    void cpusForcedWhereItCannotBeHadNamesTheFieldAndLine() throws Exception {
        InvalidSettingException e =
                assertThrows(InvalidSettingException.class, () -> Isolation.CPUS.decide(read(FILE), TWO));
        assertEquals("isolation", e.field());
        // in a file, the reader refuses it at its line when this host cannot give it (here: a cpuset reaching CPU 0)
        ExperimentException atLine = assertThrows(ExperimentException.class, () -> read(FILE + "isolation: cpus\n"));
        assertEquals(7, atLine.line(), atLine.getMessage());
        assertTrue(
                atLine.getMessage().contains("isolation") && atLine.getMessage().contains("cpuset"),
                atLine.getMessage());
        ExperimentException bad = assertThrows(ExperimentException.class, () -> read(FILE + "isolation: yes\n"));
        assertTrue(bad.getMessage().contains("use auto"), bad.getMessage());
    }
}

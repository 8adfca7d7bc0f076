package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.results.ResultColumns;
import io.envbench.measure.stats.Correction;
import org.junit.jupiter.api.Test;

/** {@code calibration: aa} (the baseline against itself) and {@code correction:} as files write them. */
class CalibrationFileTest {
    private static final Path FILE = Path.of("cal.yaml");
    private static final String AA = """
            name: cal
            target: nginx-static
            environments:
              - { name: docker, placement: docker }
              - { name: bare, placement: bare }
            calibration: aa
            correction: holm
            load: { http: { path: /, durationSeconds: 5 } }
            """;

    @Test
    void theBaselinesCopyRunsRightAfterItAndReadsBackFromWhatTheRunWrites() throws Exception {
        Experiment e = ExperimentFile.parse(AA, FILE, ExperimentFileTest.TARGETS);
        assertEquals(List.of("docker", "bare", "bare-aa"), e.environmentNames());
        assertEquals(Calibration.AA, e.calibration());
        assertEquals(Correction.HOLM, e.correction());
        assertEquals(
                e.environment("bare").definition().placement(),
                e.environment("bare-aa").definition().placement());
        assertEquals(
                List.of(List.of("docker", "bare", "bare-aa")), e.order().rounds(e.environmentNames(), 1, e.seed()));
        String written = e.toYaml();
        assertTrue(written.contains("calibration: aa") && written.contains("correction: holm"), written);
        assertFalse(written.contains("bare-aa"), "the copy is made by the reader, not written:\n" + written);
        Experiment again = ExperimentFile.parse(written, FILE, ExperimentFileTest.TARGETS);
        assertEquals(e.environmentNames(), again.environmentNames());
        assertEquals(written, again.toYaml());
    }

    @Test
    void withoutCalibrationNothingIsAdded() throws Exception {
        Experiment e = ExperimentFile.parse(
                AA.replace("calibration: aa\n", "").replace("correction: holm\n", ""),
                FILE,
                ExperimentFileTest.TARGETS);
        assertEquals(List.of("docker", "bare"), e.environmentNames());
        assertEquals(Correction.BH, e.correction(), "the default");
    }

    @Test
    void calibrateOnTheCommandLineGivesWhatTheFieldGives() throws Exception {
        Experiment plain = ExperimentFile.parse(AA.replace("calibration: aa\n", ""), FILE, ExperimentFileTest.TARGETS);
        Experiment field = ExperimentFile.parse(AA, FILE, ExperimentFileTest.TARGETS);
        Experiment flag = plain.withCalibration(Calibration.AA);
        assertEquals(field.environmentNames(), flag.environmentNames());
        assertEquals(field.toYaml(), flag.toYaml());
        assertSame(field, field.withCalibration(Calibration.AA), "already so: unchanged");
        InvalidSettingException off =
                assertThrows(InvalidSettingException.class, () -> field.withCalibration(Calibration.NONE));
        assertEquals("calibration", off.field());
    }

    @Test
    void badValuesAndANameTakenAreNamedWithTheirLine() {
        ExperimentException bad = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        AA.replace("calibration: aa", "calibration: twice"), FILE, ExperimentFileTest.TARGETS));
        assertEquals(6, bad.line(), bad.getMessage());
        assertTrue(bad.getMessage().contains("calibration") && bad.getMessage().contains("use aa"), bad.getMessage());
        ExperimentException taken = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        AA.replace("name: docker,", "name: bare-aa,"), FILE, ExperimentFileTest.TARGETS));
        assertTrue(
                taken.getMessage().contains("'bare-aa'") && taken.getMessage().contains("rename"), taken.getMessage());
        ExperimentException correction = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        AA.replace("correction: holm", "correction: bonferroni"), FILE, ExperimentFileTest.TARGETS));
        assertEquals(7, correction.line(), correction.getMessage());
        assertTrue(correction.getMessage().contains("use bh"), correction.getMessage());
    }

    @Test
    void resultsIsFullUnlessCompactIsAskedAndABadValueIsNamedWithItsLineAndTheChoices() throws Exception {
        Experiment byDefault = ExperimentFile.parse(AA, FILE, ExperimentFileTest.TARGETS);
        assertEquals(ResultColumns.FULL, byDefault.results(), "every column, as a JMeter user expects");
        Experiment compact = ExperimentFile.parse(
                AA.replace("correction: holm", "results: compact"), FILE, ExperimentFileTest.TARGETS);
        assertEquals(ResultColumns.COMPACT, compact.results());
        assertTrue(compact.toYaml().contains("results: compact"), compact.toYaml());
        assertEquals(
                ResultColumns.COMPACT,
                ExperimentFile.parse(compact.toYaml(), FILE, ExperimentFileTest.TARGETS)
                        .results(),
                "read back from what the run directory keeps");
        ExperimentException bad = assertThrows(
                ExperimentException.class,
                () -> ExperimentFile.parse(
                        AA.replace("correction: holm", "results: small"), FILE, ExperimentFileTest.TARGETS));
        assertEquals(7, bad.line(), bad.getMessage());
        assertTrue(
                bad.getMessage().contains("results")
                        && bad.getMessage().contains("'small'")
                        && bad.getMessage().contains("full")
                        && bad.getMessage().contains("compact"),
                bad.getMessage());
    }
}

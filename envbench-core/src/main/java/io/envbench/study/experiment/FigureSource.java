package io.envbench.study.experiment;

import java.util.OptionalDouble;
import java.util.Set;

/**
 * The figures a {@link Criterion} is evaluated on: for each environment and label, the median over the runs of
 * each run's figure. Implemented by the runner over its results.
 */
public interface FigureSource {
    /**
     * @param environment an environment of the experiment
     * @param label       a sample label, or {@link Criterion#TOTAL} for all labels together
     * @param figure      a {@link Figure#key()}: throughput in samples/s, times in ms, errorPct in percent
     * @return empty when there is no such figure (the environment did not run, no sample had the label)
     */
    OptionalDouble value(String environment, String label, String figure);

    /** The environments that have figures; {@code *} in a criterion means each of these. */
    Set<String> environments();
}

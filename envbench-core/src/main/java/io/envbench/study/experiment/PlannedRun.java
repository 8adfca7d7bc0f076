package io.envbench.study.experiment;

/**
 * One run of an experiment: an environment's repetition in a round. Every round runs each environment
 * once (interleaved A B C A B C, or shuffled per round), so slow drift of the machine spreads over all.
 *
 * @param round       1-based round
 * @param environment environment name
 * @param repetition  1-based repetition of that environment
 */
public record PlannedRun(int round, String environment, int repetition) {
    /** File name stem of this run's files, e.g. {@code docker-bridge-r2}. */
    public String id() {
        return environment + "-r" + repetition;
    }
}

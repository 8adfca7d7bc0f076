package io.envbench.measure.hints;

/**
 * Advice drawn from the resources a run used, with the figure it came from.
 *
 * @param environment the environment it concerns
 * @param figure      the figure and its value, e.g. "process.docker-proxy.cpu.pct avg 48.7%"
 * @param advice      what it means and what to try
 */
public record Hint(String environment, String figure, String advice) {
    @Override
    public String toString() {
        return environment + ": " + advice + " (" + figure + ")";
    }
}

package io.envbench.study.cpucontrol;

/**
 * Hears every action of a CPU controller as it happens ({@link CpuControlLoop}), e.g. to draw it over the metrics or
 * write it down ({@link TimelineCsv}). Called on the loop's thread: an implementation returns quickly and is
 * thread-safe if it is shared.
 */
@FunctionalInterface
public interface ControlTimeline {
    void acted(CpuAction action);
}

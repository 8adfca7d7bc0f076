package io.envbench.study.cpucontrol;

import java.util.List;

/** Where a {@link CpuControlLoop} gets its readings: {@link TenantReadings} for real containers; tests give made-up ones. */
@FunctionalInterface
public interface ReadingSource {
    /**
     * What each tenant did since the last call. A tenant with nothing to compare yet (the first call) is left out.
     */
    List<TenantReading> read();
}

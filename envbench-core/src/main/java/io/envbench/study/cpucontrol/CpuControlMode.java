package io.envbench.study.cpucontrol;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import io.envbench.base.settings.InvalidSettingException;

/** Which CPU controller runs: study 004's (docs/studies.md#study-004) choices. */
public enum CpuControlMode {
    /** Nothing is changed: every tenant keeps the cpuset it started with. */
    NONE,
    /** Low tenants pinned to their CPUs once, high tenants float; nothing changes afterwards. */
    STATIC,
    /** Pinned at first, then a loop releases the tenant using a saturated home most (or one missing its goal), and pins it again when it and the home's tenants fit. */
    DYNAMIC;

    /**
     * {@code none}, {@code static} or {@code dynamic}, in any case.
     *
     * @throws InvalidSettingException naming {@code field} and the choices
     */
    public static CpuControlMode parse(String field, String text) {
        String t = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
        for (CpuControlMode m : values()) {
            if (m.name().equals(t)) {
                return m;
            }
        }
        throw new InvalidSettingException(
                field,
                "'" + text + "' is no CPU controller; choose one of "
                        + Arrays.stream(values())
                                .map(m -> m.name().toLowerCase(Locale.ROOT))
                                .collect(Collectors.joining(", ")));
    }
}

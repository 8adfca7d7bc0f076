package io.envbench.report.command;

import java.math.BigDecimal;

/** How a command report's CSV writes a number: plain decimal, no trailing zeros, no exponent. Stateless. */
final class CsvNumber {
    private CsvNumber() {}

    /** Empty for no value (NaN), "Infinity" for a change no run count could detect. */
    static String raw(double v) {
        return Double.isNaN(v)
                ? ""
                : Double.isInfinite(v)
                        ? "Infinity"
                        : new BigDecimal(Double.toString(v))
                                .stripTrailingZeros()
                                .toPlainString();
    }
}

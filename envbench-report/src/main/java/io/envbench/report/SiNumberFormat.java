package io.envbench.report;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.Locale;

/**
 * Tick labels with an SI prefix instead of an exponent: 2,900,000,000 reads "2.9 G", 1,500 "1.5 k", 0.25 "0.25".
 * JFreeChart's own tick formats switch to scientific notation ("2.9E9") for large values, which no reader of a report
 * should have to decode. Writes only.
 */
public final class SiNumberFormat extends NumberFormat {
    private static final double[] FACTORS = {1e12, 1e9, 1e6, 1e3};
    private static final String[] PREFIXES = {" T", " G", " M", " k"};

    private final DecimalFormat digits;

    /** Up to three decimals: 0.25 reads "0.25". */
    public SiNumberFormat() {
        this(3);
    }

    /** @param fractionDigits the most decimals shown (a log axis' ticks, 79.43 and 125.89, read "79.4" and "125.9" with 1) */
    public SiNumberFormat(int fractionDigits) {
        digits = new DecimalFormat(
                "#,##0" + (fractionDigits > 0 ? "." + "#".repeat(fractionDigits) : ""),
                DecimalFormatSymbols.getInstance(Locale.ROOT));
    }

    @Override
    public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
        if (!Double.isFinite(number)) {
            return toAppendTo.append(number);
        }
        if (Math.abs(number) < 0.0005) {
            number = 0; // what three decimals show as 0 is 0, never "-0" (an axis around zero has ticks at -1e-17)
        }
        for (int i = 0; i < FACTORS.length; i++) {
            if (Math.abs(number) >= FACTORS[i]) {
                return digits.format(number / FACTORS[i], toAppendTo, pos).append(PREFIXES[i]);
            }
        }
        return digits.format(number, toAppendTo, pos);
    }

    @Override
    public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
        return format((double) number, toAppendTo, pos);
    }

    @Override
    public Number parse(String source, ParsePosition parsePosition) {
        throw new UnsupportedOperationException("tick labels are written, never read back");
    }
}

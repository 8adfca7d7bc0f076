package io.envbench.measure.engines;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How an engine's metrics travel to the controlling machine: inside JMeter's own sample stream, as one carrier
 * sample per metrics tick. Engines may be other machines, so no shared folder is assumed; whatever JMeter already
 * sends back (in any of its modes, {@code StrippedBatch} included) carries them, and the controlling JMeter writes
 * them into its JTL with every other sample. The carrier's label is {@value #LABEL}, its start time the tick's, its
 * response message the tick's figures as {@code name=value;name=value} (no comma or quote: the JTL line stays
 * plain), and its {@value #ENGINE_VARIABLE} column the engine. Readers of results leave carriers out
 * ({@link #isCarrier}), so they never count as load.
 */
public final class EngineMetrics {
    /** The carrier sample's label. */
    public static final String LABEL = "EnvBench engine metrics";
    /** The sample variable (JTL column, through {@code sample_variables}) naming the engine that took a sample. */
    public static final String ENGINE_VARIABLE = "envbench.engine";

    private EngineMetrics() {}

    public static boolean isCarrier(String label) {
        return LABEL.equals(label);
    }

    /** {@code name=value;...}; NaN (no reading) is left out, as the metrics file leaves its cell empty. */
    public static String encode(Map<String, Double> values) {
        StringBuilder b = new StringBuilder(values.size() * 32);
        values.forEach((name, v) -> {
            if (v != null && !v.isNaN()) {
                if (b.length() > 0) {
                    b.append(';');
                }
                b.append(name).append('=').append(v.doubleValue());
            }
        });
        return b.toString();
    }

    /** The figures of a carrier's message, in their order; a part without a number is an error naming it. */
    public static Map<String, Double> decode(String message) {
        Map<String, Double> values = new LinkedHashMap<>();
        if (message == null || message.isEmpty()) {
            return values;
        }
        for (String part : message.split(";")) {
            int eq = part.lastIndexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + part + "' is not name=value");
            }
            try {
                values.put(part.substring(0, eq), Double.parseDouble(part.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "': '" + part.substring(eq + 1) + "' is not a number");
            }
        }
        return values;
    }
}

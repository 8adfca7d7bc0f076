package io.envbench.measure.influxdb;

import java.math.BigDecimal;
import java.util.Map;

/**
 * InfluxDB's line protocol, {@code measurement,tag=v,... field=1.5,count=3i 1700000000000}, with its escaping rules:
 * a comma or space in a measurement, and a comma, equals sign or space in a tag key or value, take a backslash. Hand
 * written because the official Java client (influxdb-java) brings OkHttp and Retrofit into JMeter's JVM for these few
 * lines; the JDK's HTTP client sends them.
 */
final class LineProtocol {
    private LineProtocol() {}

    /**
     * One point; {@code fields} values are {@link Double} (written as floats) or {@link Long} (integers, {@code i}).
     * Tags with an empty value are left out (InfluxDB refuses them).
     */
    static String line(
            String measurement, Map<String, String> tags, Map<String, ? extends Number> fields, long epochMs) {
        StringBuilder b = new StringBuilder(measurement.replaceAll("([, ])", "\\\\$1"));
        tags.forEach((k, v) -> {
            if (v != null && !v.isEmpty()) {
                b.append(',').append(tag(k)).append('=').append(tag(v));
            }
        });
        char sep = ' ';
        for (Map.Entry<String, ? extends Number> f : fields.entrySet()) {
            b.append(sep).append(tag(f.getKey())).append('=').append(number(f.getValue()));
            sep = ',';
        }
        return b.append(' ').append(epochMs).toString();
    }

    private static String tag(String s) {
        return s.replaceAll("([,= ])", "\\\\$1");
    }

    /** A float exactly as the double it is, never in exponent form; an integer with its {@code i}. */
    private static String number(Number n) {
        if (n instanceof Long || n instanceof Integer) {
            return n.longValue() + "i";
        }
        return BigDecimal.valueOf(n.doubleValue()).toPlainString();
    }
}

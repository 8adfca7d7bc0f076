package io.envbench.measure.influxdb;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import net.jcip.annotations.Immutable;

/**
 * Where the Resource Monitor writes: one database of an InfluxDB 1.x, through its HTTP API ({@code /write},
 * {@code /query}), without authentication.
 *
 * @param base     the server's URL, ending in {@code /} (a path is kept: an InfluxDB behind a reverse proxy)
 * @param database the database written to; created at the start when missing
 */
@Immutable
public record InfluxDbTarget(URI base, String database) {
    public InfluxDbTarget {
        String s = base.toString();
        base = s.endsWith("/") ? base : URI.create(s + "/");
    }

    /** {@code /write?db=DB&precision=ms}: points in line protocol, timestamps in milliseconds as the metrics file's. */
    public URI writeUri() {
        return base.resolve("write?db=" + encode(database) + "&precision=ms");
    }

    /** {@code /query?q=...}: InfluxQL (a POST for statements that change something, such as CREATE DATABASE). */
    public URI queryUri(String influxQl) {
        return base.resolve("query?q=" + encode(influxQl));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}

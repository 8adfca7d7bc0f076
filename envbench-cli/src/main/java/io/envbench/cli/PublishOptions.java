package io.envbench.cli;

import io.envbench.measure.publish.PublishSetting;
import io.envbench.measure.publish.Publishing;
import io.envbench.measure.publish.SettingSpelling;
import picocli.CommandLine.Option;

/**
 * Where {@code envbench run} publishes the experiment's figures while it runs: flags, not experiment-file keys, since
 * they say where this machine's monitoring is (a CI job's Prometheus port, its InfluxDB), not what is compared; the
 * same experiment file runs on a laptop and in CI. The same settings as the Resource Monitor's JMeter properties.
 */
final class PublishOptions {
    static final String PROMETHEUS_PORT = "--prometheus-port";
    static final String PROMETHEUS_HOST = "--prometheus-host";
    static final String INFLUXDB_URL = "--influxdb-url";
    static final String INFLUXDB_DB = "--influxdb-db";
    static final String INFLUXDB_ALLOW_REMOTE = "--influxdb-allow-remote";

    @Option(
            names = PROMETHEUS_PORT,
            paramLabel = "PORT",
            description = "serve the experiment's figures and response times for Prometheus at"
                    + " http://127.0.0.1:PORT/metrics from its start to its end, e.g. 9270 (default: none)")
    String prometheusPort;

    @Option(
            names = PROMETHEUS_HOST,
            paramLabel = "HOST",
            description = "the endpoint's address, a loopback one only (default 127.0.0.1)")
    String prometheusHost;

    @Option(
            names = INFLUXDB_URL,
            paramLabel = "URL",
            description = "write the same figures to this InfluxDB 1.x, e.g. http://127.0.0.1:8086 (default: none)")
    String influxDbUrl;

    @Option(
            names = INFLUXDB_DB,
            paramLabel = "NAME",
            description =
                    "the InfluxDB database, created when missing (default " + Publishing.DEFAULT_INFLUXDB_DB + ")")
    String influxDbDb;

    @Option(
            names = INFLUXDB_ALLOW_REMOTE,
            description = "allow an InfluxDB on another machine (the points go unencrypted, without credentials)")
    boolean influxDbAllowRemote;

    /** The flags checked: a non-loopback host or URL (without the permission) names its flag and the fix. */
    Publishing publishing() {
        return new Publishing(
                Publishing.prometheus(prometheusPort, prometheusHost, SPELLING),
                Publishing.influxDb(influxDbUrl, influxDbDb, Boolean.toString(influxDbAllowRemote), SPELLING),
                SPELLING);
    }

    static final SettingSpelling SPELLING = new SettingSpelling() {
        @Override
        public String field(PublishSetting setting) {
            return switch (setting) {
                case PROMETHEUS_PORT -> PROMETHEUS_PORT;
                case PROMETHEUS_HOST -> PROMETHEUS_HOST;
                case INFLUXDB_URL -> INFLUXDB_URL;
                case INFLUXDB_DB -> INFLUXDB_DB;
                case INFLUXDB_ALLOW_REMOTE -> INFLUXDB_ALLOW_REMOTE;
            };
        }

        @Override
        public String give(PublishSetting setting, String value) {
            return setting == PublishSetting.INFLUXDB_ALLOW_REMOTE
                    ? INFLUXDB_ALLOW_REMOTE
                    : field(setting) + " " + value;
        }
    };
}

package io.envbench.measure.publish;

/**
 * The settings of publishing metrics while load runs, whichever front end takes them: the Resource Monitor's JMeter
 * properties ({@code envbench.prometheus.port}, ...) or {@code envbench run}'s flags ({@code --prometheus-port}, ...).
 * A front end names them in its messages through a {@link SettingSpelling}.
 */
public enum PublishSetting {
    PROMETHEUS_PORT,
    PROMETHEUS_HOST,
    INFLUXDB_URL,
    INFLUXDB_DB,
    INFLUXDB_ALLOW_REMOTE
}

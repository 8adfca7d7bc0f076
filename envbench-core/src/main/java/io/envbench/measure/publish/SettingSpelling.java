package io.envbench.measure.publish;

/**
 * How a front end names a publishing setting in a message, so that one check serves both: the Resource Monitor says
 * {@code -Jenvbench.prometheus.host=127.0.0.1}, {@code envbench run} says {@code --prometheus-host 127.0.0.1}.
 */
public interface SettingSpelling {
    /** The field a message starts with, e.g. {@code Prometheus port (envbench.prometheus.port)} or {@code --prometheus-port}. */
    String field(PublishSetting setting);

    /** How the user gives {@code value} to it, e.g. {@code -Jenvbench.prometheus.port=9270} or {@code --prometheus-port 9270}. */
    String give(PublishSetting setting, String value);
}

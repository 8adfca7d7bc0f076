/**
 * JMeter's remote engines ({@code jmeter-server}, driven with {@code -R}): {@link io.envbench.measure.engines.RemoteEngine}
 * (an engine as {@code -R} names it), {@link io.envbench.measure.engines.RemoteEngines} (the engines of an experiment and
 * the RMI keystore they share), and the metrics each engine sends back through JMeter's own sample stream:
 * {@link io.envbench.measure.engines.EngineMetrics} (the carrier sample's format) and
 * {@link io.envbench.measure.engines.EngineMetricsFiles} (a run's JTL split into one metrics file per engine).
 */
package io.envbench.measure.engines;

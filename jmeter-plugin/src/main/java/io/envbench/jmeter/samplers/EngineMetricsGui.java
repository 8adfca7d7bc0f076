package io.envbench.jmeter.samplers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Engine Metrics element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class EngineMetricsGui extends EnvBenchBeanGui {
    public EngineMetricsGui() {
        super(EngineMetricsSampler.class, EnvBenchHelp.Topic.ENGINE_METRICS);
    }
}

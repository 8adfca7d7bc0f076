package io.envbench.jmeter.startgate;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Start Gate's GUI: JMeter's panel for it, with right-click Help opening EnvBench's page. */
public final class StartGateGui extends EnvBenchBeanGui {
    public StartGateGui() {
        super(StartGate.class, EnvBenchHelp.Topic.START_GATE);
    }
}

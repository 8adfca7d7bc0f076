package io.envbench.jmeter.timers;

import io.envbench.jmeter.EnvBenchBeanGui;
import io.envbench.jmeter.EnvBenchHelp;

/** The Arrivals Timer element's GUI: JMeter's fields for it, with right-click Help opening EnvBench's page. */
public final class ArrivalsTimerGui extends EnvBenchBeanGui {
    public ArrivalsTimerGui() {
        super(ArrivalsTimer.class, EnvBenchHelp.Topic.ARRIVALS_TIMER);
    }
}

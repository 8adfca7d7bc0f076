package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the Engine Metrics sampler: one field, the interval; labels and tooltips in the resources file. */
public class EngineMetricsSamplerBeanInfo extends EnvBenchBeanInfo {
    public EngineMetricsSamplerBeanInfo() {
        super(EngineMetricsSampler.class, Fields.class);
        createPropertyGroup("metricsGroup", new String[] {"interval"});
        PropertyDescriptor p = property("interval");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "${__P(envbench.metrics.interval.ms,1000)}");
    }

    /** This element's fields in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(EngineMetricsSampler.class, EnvBenchHelp.Topic.ENGINE_METRICS);
        }
    }
}

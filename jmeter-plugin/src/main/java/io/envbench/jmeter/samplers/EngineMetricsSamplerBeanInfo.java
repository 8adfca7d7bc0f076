package io.envbench.jmeter.samplers;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI of the Engine Metrics sampler: one field, the interval; labels and tooltips in the resources file. */
public class EngineMetricsSamplerBeanInfo extends BeanInfoSupport {
    public EngineMetricsSamplerBeanInfo() {
        super(EngineMetricsSampler.class);
        createPropertyGroup("metricsGroup", new String[] {"interval"});
        PropertyDescriptor p = property("interval");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "${__P(envbench.metrics.interval.ms,1000)}");
    }
}

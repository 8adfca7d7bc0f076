package io.envbench.jmeter.timers;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

/** GUI of the Arrivals Timer: the rate and the seed; labels and tooltips in the resources file. */
public class ArrivalsTimerBeanInfo extends BeanInfoSupport {
    public ArrivalsTimerBeanInfo() {
        super(ArrivalsTimer.class);
        createPropertyGroup("arrivals", new String[] {"arrivalsPerMinute", "seed"});
        PropertyDescriptor rate = property("arrivalsPerMinute");
        rate.setValue(NOT_UNDEFINED, Boolean.TRUE);
        rate.setValue(DEFAULT, 6000.0);
        PropertyDescriptor seed = property("seed");
        seed.setValue(NOT_UNDEFINED, Boolean.TRUE);
        seed.setValue(DEFAULT, 0L);
    }
}

package io.envbench.jmeter.timers;

import java.beans.PropertyDescriptor;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the Arrivals Timer: the rate and the seed; labels and tooltips in the resources file. */
public class ArrivalsTimerBeanInfo extends EnvBenchBeanInfo {
    public ArrivalsTimerBeanInfo() {
        super(ArrivalsTimer.class, Fields.class);
        createPropertyGroup("arrivals", new String[] {"arrivalsPerMinute", "seed"});
        PropertyDescriptor rate = property("arrivalsPerMinute");
        rate.setValue(NOT_UNDEFINED, Boolean.TRUE);
        rate.setValue(DEFAULT, 6000.0);
        PropertyDescriptor seed = property("seed");
        seed.setValue(NOT_UNDEFINED, Boolean.TRUE);
        seed.setValue(DEFAULT, 0L);
    }

    /** This element's fields in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(ArrivalsTimer.class, EnvBenchHelp.Topic.ARRIVALS_TIMER);
        }
    }
}

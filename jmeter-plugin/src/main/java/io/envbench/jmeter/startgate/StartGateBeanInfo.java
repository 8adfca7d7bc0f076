package io.envbench.jmeter.startgate;

import io.envbench.jmeter.BeanFieldsPanel;
import io.envbench.jmeter.EnvBenchBeanInfo;
import io.envbench.jmeter.EnvBenchHelp;

/** GUI of the Start Gate: no field of its own (name, comments, Help); its description in the resources file. */
public class StartGateBeanInfo extends EnvBenchBeanInfo {
    public StartGateBeanInfo() {
        super(StartGate.class, Fields.class);
    }

    /** This element's panel in JMeter's TestBeanGUI, with its Help button. */
    public static final class Fields extends BeanFieldsPanel {
        private static final long serialVersionUID = 1L;

        public Fields() {
            super(StartGate.class, EnvBenchHelp.Topic.START_GATE);
        }
    }
}

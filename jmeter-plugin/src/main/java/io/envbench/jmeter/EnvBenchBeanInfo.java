package io.envbench.jmeter;

import java.beans.BeanDescriptor;
import java.util.Enumeration;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.TestBean;

/**
 * The BeanInfo of an EnvBench TestBean: JMeter's, with the element's {@link BeanFieldsPanel} as its customizer, the
 * one hook JMeter's TestBeanGUI offers for what its generic fields cannot do (a Help button, a field disabled by
 * another). BeanInfoSupport takes no customizer, so the descriptor is copied with one, hidden from JMeter's menus in
 * favour of the element's {@link EnvBenchBeanGui}.
 */
public abstract class EnvBenchBeanInfo extends BeanInfoSupport {
    /** Null only while BeanInfoSupport's constructor runs (it fills its own descriptor then). */
    private final BeanDescriptor withFields;

    protected EnvBenchBeanInfo(Class<? extends TestBean> beanClass, Class<? extends BeanFieldsPanel> fields) {
        super(beanClass);
        BeanDescriptor d = super.getBeanDescriptor();
        BeanDescriptor copy = new BeanDescriptor(beanClass, fields);
        copy.setDisplayName(d.getDisplayName());
        copy.setShortDescription(d.getShortDescription());
        for (Enumeration<String> names = d.attributeNames(); names.hasMoreElements(); ) {
            String name = names.nextElement();
            copy.setValue(name, d.getValue(name));
        }
        // the Add menu lists the element's own GUI (an EnvBenchBeanGui, whose right-click Help opens EnvBench's page),
        // not JMeter's plain TestBeanGUI for it as well
        copy.setHidden(true);
        withFields = copy;
    }

    @Override
    public BeanDescriptor getBeanDescriptor() {
        return withFields == null ? super.getBeanDescriptor() : withFields;
    }
}

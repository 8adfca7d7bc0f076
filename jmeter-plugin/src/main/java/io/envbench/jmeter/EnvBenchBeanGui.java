package io.envbench.jmeter;

import javax.swing.JPopupMenu;

import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.TestBeanGUI;

/**
 * JMeter's TestBeanGUI for an EnvBench TestBean, whose right-click Help opens EnvBench's page at the element's section:
 * JMeter's Help action joins the element's anchor to Apache's component reference (where EnvBench's elements have no
 * section) and every command registered for "help" runs, so the menu is the element GUI's to change. JMeter shows an
 * element in the GUI class it names ({@code guiclass}), and this class names itself there when it makes or saves one;
 * plain {@code TestBeanGUI} stays for plans saved before, whose Help button still opens the page. The bean's own
 * {@code TestBeanGUI} menu entry is hidden ({@link EnvBenchBeanInfo}), so the Add menu lists this one instead.
 */
public abstract class EnvBenchBeanGui extends TestBeanGUI {
    private final EnvBenchHelp.Topic topic;

    protected EnvBenchBeanGui(Class<? extends TestBean> bean, EnvBenchHelp.Topic topic) {
        super(bean);
        this.topic = topic;
    }

    /** The element's section of the help page. */
    public final EnvBenchHelp.Topic topic() {
        return topic;
    }

    @Override
    public JPopupMenu createPopupMenu() {
        return EnvBenchHelp.popupMenu(super.createPopupMenu(), topic, this);
    }

    @Override
    public String getDocAnchor() {
        return topic.anchor();
    }

    /** Listed in the Add menu, whereas the bean's own TestBeanGUI entry is hidden. */
    @Override
    public boolean isHidden() {
        return false;
    }
}

package io.envbench.controller.keyboard;

import java.awt.AWTKeyStroke;
import java.awt.KeyboardFocusManager;
import java.awt.event.InputEvent;
import java.awt.event.KeyEvent;
import java.util.Set;
import javax.swing.JComponent;

/**
 * Tab and Shift+Tab go to the next and previous field from a table or a text area, as from any other field (Ctrl+Tab
 * too). A table walks its cells on Tab and a text area types a tab, so a keyboard user was caught in them; a table's
 * selection is an environment or a tenant, and Tab must not change which one is selected. Every table of the
 * controller takes it (arrow keys still move between cells, F2 or typing edits one).
 */
public final class TabLeaves {
    private TabLeaves() {}

    public static <C extends JComponent> C of(C c) {
        c.setFocusTraversalKeys(
                KeyboardFocusManager.FORWARD_TRAVERSAL_KEYS,
                Set.of(
                        AWTKeyStroke.getAWTKeyStroke(KeyEvent.VK_TAB, 0),
                        AWTKeyStroke.getAWTKeyStroke(KeyEvent.VK_TAB, InputEvent.CTRL_DOWN_MASK)));
        c.setFocusTraversalKeys(
                KeyboardFocusManager.BACKWARD_TRAVERSAL_KEYS,
                Set.of(
                        AWTKeyStroke.getAWTKeyStroke(KeyEvent.VK_TAB, InputEvent.SHIFT_DOWN_MASK),
                        AWTKeyStroke.getAWTKeyStroke(
                                KeyEvent.VK_TAB, InputEvent.SHIFT_DOWN_MASK | InputEvent.CTRL_DOWN_MASK)));
        return c;
    }
}

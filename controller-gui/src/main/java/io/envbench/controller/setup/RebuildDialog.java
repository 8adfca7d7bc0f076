package io.envbench.controller.setup;

import java.awt.BorderLayout;
import java.awt.Component;
import java.awt.Dimension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.JPanel;
import javax.swing.JProgressBar;
import javax.swing.JScrollPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;

/**
 * Before a run whose images are out of date (or missing): which would be rebuilt, why and about how long, with
 * Rebuild now or Cancel; then the rebuild, with its log, before the run starts.
 */
public final class RebuildDialog {
    public static final String TITLE = "Rebuild images?";
    public static final String REBUILD = "Rebuild now";
    public static final String CANCEL = "Cancel";

    private RebuildDialog() {}

    /** Asks whether to rebuild; true for Rebuild now. */
    public static boolean ask(Component parent, List<ImageCheck.Rebuild> rebuilds) {
        JTextArea list = new JTextArea();
        list.setName("rebuild.list");
        list.setEditable(false);
        list.setLineWrap(true);
        list.setWrapStyleWord(true);
        StringBuilder text = new StringBuilder();
        rebuilds.forEach(r -> text.append(r.image())
                .append("\n    why: ")
                .append(r.why())
                .append("\n    takes ")
                .append(r.estimate())
                .append("\n"));
        list.setText(text.toString().strip());
        list.setCaretPosition(0);
        JScrollPane scroll = new JScrollPane(list);
        scroll.setPreferredSize(new Dimension(640, Math.min(320, 70 + 60 * rebuilds.size())));
        JPanel message = new JPanel(new BorderLayout(0, 8));
        message.add(
                new JLabel("<html>This experiment's images are not up to date with their recipes. Rebuild them"
                        + " before the run (as <code>./envbench setup</code> would), or cancel the run.</html>"),
                BorderLayout.NORTH);
        message.add(scroll);
        Object[] options = {REBUILD, CANCEL};
        int answer = JOptionPane.showOptionDialog(
                parent, message, TITLE, JOptionPane.YES_NO_OPTION, JOptionPane.QUESTION_MESSAGE, null, options, CANCEL);
        return answer == 0;
    }

    /**
     * Rebuilds, in a modal window with the script's log, and returns when it has ended: true when every image was
     * built, false when the rebuild failed (its last lines shown) or was cancelled.
     */
    public static boolean rebuild(Component parent, ImageCheck check, Set<String> folders) {
        JDialog d = new JDialog(SwingUtilities.getWindowAncestor(parent), "Rebuilding images");
        d.setModal(true);
        d.setName("rebuild.progress");
        JTextArea log = new JTextArea(16, 80);
        log.setName("rebuild.log");
        log.setEditable(false);
        JProgressBar bar = new JProgressBar();
        bar.setIndeterminate(true);
        JButton cancel = new JButton("Cancel");
        JPanel south = new JPanel(new BorderLayout(8, 0));
        south.add(bar);
        south.add(cancel, BorderLayout.EAST);
        JPanel content = new JPanel(new BorderLayout(0, 8));
        content.setBorder(BorderFactory.createEmptyBorder(8, 8, 8, 8));
        content.add(new JScrollPane(log));
        content.add(south, BorderLayout.SOUTH);
        d.setContentPane(content);
        d.pack();
        d.setLocationRelativeTo(parent);
        boolean[] ok = {false};
        Process[] process = {null};
        cancel.addActionListener(e -> {
            if (process[0] != null) {
                process[0].descendants().forEach(ProcessHandle::destroy);
                process[0].destroy();
            }
            d.dispose();
        });
        Thread t = new Thread(
                () -> {
                    try {
                        Process p = check.rebuild(folders).start();
                        process[0] = p;
                        try (BufferedReader r =
                                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                            for (String line; (line = r.readLine()) != null; ) {
                                String l = line;
                                SwingUtilities.invokeLater(() -> log.append(l + "\n"));
                            }
                        }
                        int exit = p.waitFor();
                        SwingUtilities.invokeLater(() -> {
                            ok[0] = exit == 0;
                            if (exit != 0 && d.isDisplayable()) {
                                bar.setIndeterminate(false);
                                log.append("\nThe rebuild failed (exit " + exit + "); the run does not start.\n");
                                cancel.setText("Close");
                            } else {
                                d.dispose();
                            }
                        });
                    } catch (IOException | InterruptedException e) {
                        SwingUtilities.invokeLater(() -> {
                            log.append("\nThe rebuild could not run: " + e.getMessage() + "\n");
                            cancel.setText("Close");
                        });
                    }
                },
                "envbench-rebuild");
        t.setDaemon(true);
        t.start();
        d.setVisible(true); // modal: returns when the rebuild has ended or was cancelled
        return ok[0];
    }
}

package io.envbench.controller.run;

import java.awt.BorderLayout;
import java.awt.Dimension;
import java.awt.FlowLayout;
import java.awt.Window;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JSplitPane;
import javax.swing.JTextArea;
import javax.swing.SwingUtilities;

import io.envbench.report.capacity.CapacityReport;
import io.envbench.study.runner.CapacitySearch;
import io.envbench.study.runner.ExperimentRun;
import io.envbench.study.runner.RunProgress;
import org.jfree.chart.ChartPanel;

/**
 * {@code ./envbench capacity} from the controller: the same search of one environment, off the event thread, each
 * step said as it ends; at its end the knee chart (rate asked against latency and rate achieved) and the capacity
 * found, written where the command line writes them ({@code capacity/} of a run directory). Cancel stops the step
 * that runs.
 */
public final class CapacityDialog extends JDialog {
    private final JTextArea log = new JTextArea();
    private final JLabel result = new JLabel("searching…");
    private final ChartPanel chart = new ChartPanel(null);
    private final JButton cancel = new JButton("Cancel");
    private final JButton close = new JButton("Close");
    private final CompletableFuture<CapacitySearch.Result> found = new CompletableFuture<>();
    private final ExperimentRun run;
    private final String environment;

    /**
     * @param run         prepared for the search, closed at its end
     * @param environment the environment whose capacity is searched
     */
    public CapacityDialog(Window owner, ExperimentRun run, String environment) {
        super(owner, "Capacity of " + environment + " — " + run.experiment().name(), ModalityType.MODELESS);
        this.run = run;
        this.environment = environment;
        setName("capacity.dialog");
        log.setName("capacity.log");
        log.setEditable(false);
        result.setName("capacity.result");
        result.setBorder(BorderFactory.createEmptyBorder(6, 8, 6, 8));
        chart.setName("capacity.chart");
        cancel.setName("capacity.cancel");
        cancel.addActionListener(e -> cancel());
        close.setName("capacity.close");
        close.setEnabled(false);
        close.addActionListener(e -> dispose());
        JPanel buttons = new JPanel(new FlowLayout(FlowLayout.RIGHT, 4, 2));
        buttons.add(cancel);
        buttons.add(close);
        JSplitPane split = new JSplitPane(JSplitPane.VERTICAL_SPLIT, chart, new JScrollPane(log));
        split.setResizeWeight(0.7);
        add(result, BorderLayout.NORTH);
        add(split);
        add(buttons, BorderLayout.SOUTH);
        // closed while it searches: the search stops as Cancel stops it, nothing runs on unseen
        setDefaultCloseOperation(DO_NOTHING_ON_CLOSE);
        addWindowListener(new WindowAdapter() {
            @Override
            public void windowClosing(WindowEvent e) {
                if (!found.isDone()) {
                    run.cancel();
                }
                dispose();
            }
        });
        setPreferredSize(new Dimension(900, 700));
        pack();
        setLocationRelativeTo(owner);
    }

    /** Stops the step that runs; the search ends with what it found so far. */
    public void cancel() {
        cancel.setEnabled(false);
        say("cancelling: stopping the step that runs");
        run.cancel();
    }

    /** Starts the search on a thread of its own; returns at once. */
    public CapacityDialog start() {
        Thread t = new Thread(this::search, "envbench-controller-capacity");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** Completes with what the search found, or exceptionally when it could not search. */
    public CompletableFuture<CapacitySearch.Result> found() {
        return found;
    }

    private void search() {
        try {
            say("steps in " + run.directory().root().resolve("capacity"));
            CapacitySearch.Result r = run.capacity(environment, new RunProgress() {
                @Override
                public void log(String line) {
                    say(line);
                }
            });
            CapacityReport.write(r, run.directory().root().resolve("capacity"));
            SwingUtilities.invokeLater(() -> {
                result.setText(r.summary());
                result.setToolTipText(r.summary());
                chart.setChart(CapacityReport.chart(r));
            });
            say(r.summary());
            found.complete(r);
        } catch (IOException | RuntimeException e) {
            say("could not search: " + e.getMessage());
            SwingUtilities.invokeLater(() -> result.setText("no capacity: " + e.getMessage()));
            found.completeExceptionally(e);
        } finally {
            run.close();
            SwingUtilities.invokeLater(() -> {
                cancel.setEnabled(false);
                close.setEnabled(true);
            });
        }
    }

    private void say(String line) {
        SwingUtilities.invokeLater(() -> {
            log.append(line + "\n");
            log.setCaretPosition(log.getDocument().getLength());
        });
    }
}

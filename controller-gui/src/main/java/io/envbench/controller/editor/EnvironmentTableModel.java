package io.envbench.controller.editor;

import java.util.List;
import java.util.function.Supplier;
import javax.swing.table.AbstractTableModel;

import io.envbench.study.experiment.ExperimentText;
import net.jcip.annotations.NotThreadSafe;

/** The environments as table rows: name, placement and the container options. */
@NotThreadSafe
final class EnvironmentTableModel extends AbstractTableModel {
    private final Supplier<ExperimentText> drafts;
    private final List<String> columns;

    EnvironmentTableModel(Supplier<ExperimentText> drafts, List<String> columns) {
        this.drafts = drafts;
        this.columns = columns;
    }

    @Override
    public int getRowCount() {
        return drafts.get() == null ? 0 : drafts.get().environmentCount();
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public String getColumnName(int c) {
        return columns.get(c).replace("volume.type", "volume");
    }

    @Override
    public Object getValueAt(int r, int c) {
        String f = columns.get(c);
        if (!drafts.get().isContainer(r) && ExperimentText.CONTAINER_FIELDS.contains(f)) {
            return "—";
        }
        return drafts.get().environment(r, f);
    }
}

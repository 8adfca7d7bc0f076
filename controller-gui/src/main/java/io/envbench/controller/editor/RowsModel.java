package io.envbench.controller.editor;

import java.util.List;
import java.util.function.Supplier;
import javax.swing.table.AbstractTableModel;
import javax.swing.table.TableCellRenderer;

import io.envbench.study.experiment.ExperimentText;
import io.envbench.study.experiment.Tenancy;
import net.jcip.annotations.NotThreadSafe;

/**
 * Tenants written out, or configurations, as editable table rows over the draft: each cell a field as typed; a
 * configuration's loop period only editable (and only written) for the dynamic control. The row the last check
 * found a problem in is drawn in red.
 */
@NotThreadSafe
final class RowsModel extends AbstractTableModel {
    private final Supplier<ExperimentText> drafts;
    private final Runnable changed;
    private final List<String> columns;
    private final boolean tenantsModel;
    int bad = -1;

    RowsModel(Supplier<ExperimentText> drafts, List<String> columns, boolean tenantsModel, Runnable changed) {
        this.drafts = drafts;
        this.changed = changed;
        this.columns = columns;
        this.tenantsModel = tenantsModel;
    }

    @Override
    public int getRowCount() {
        return drafts.get() == null
                ? 0
                : tenantsModel ? drafts.get().tenantCount() : drafts.get().configurationCount();
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public String getColumnName(int c) {
        return columns.get(c);
    }

    @Override
    public boolean isCellEditable(int r, int c) {
        if (tenantsModel) {
            return !columns.get(c).equals("name") && drafts.get().tenantsForm() == ExperimentText.TenantsForm.EACH;
        }
        return !columns.get(c).equals("controlIntervalSeconds") || drafts.get().hasControlInterval(r);
    }

    @Override
    public Object getValueAt(int r, int c) {
        String f = columns.get(c);
        if (tenantsModel) {
            // a tenant's name is its place: tenant-N
            return f.equals("name") ? Tenancy.name(r + 1) : drafts.get().tenant(r, f);
        }
        return f.equals("controlIntervalSeconds") && !drafts.get().hasControlInterval(r)
                ? "—"
                : drafts.get().configuration(r, f);
    }

    @Override
    public void setValueAt(Object value, int r, int c) {
        String text = value == null ? "" : value.toString();
        if (tenantsModel) {
            drafts.get().tenant(r, columns.get(c), text);
        } else {
            drafts.get().configuration(r, columns.get(c), text);
            if (columns.get(c).equals("cpuControl")) {
                fireTableRowsUpdated(r, r); // the period's cell follows
            }
        }
        changed.run();
    }

    TableCellRenderer renderer() {
        return new BadRowRenderer(() -> bad);
    }
}

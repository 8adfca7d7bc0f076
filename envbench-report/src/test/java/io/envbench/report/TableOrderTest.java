package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class TableOrderTest {
    private static List<String[]> rows() {
        return List.of(new String[] {"TOTAL", "bare", "1200"}, new String[] {"GET a", "bare", "900"}, new String[] {"GET b", "bare", "80"},
                new String[] {"GET c", "bare", "~"}, new String[] {"TOTAL", "docker", "1100"}, new String[] {"GET d", "bare", "100"});
    }

    private static List<String> column(List<String[]> rows, int c) {
        return rows.stream().map(r -> r[c]).toList();
    }

    @Test
    void numbersSortAsNumbersNotAsText() {
        assertEquals(List.of("80", "100", "900", "~", "1100", "1200"), column(TableOrder.sorted(rows(), 2, true, 0), 2));
    }

    @Test
    void totalStaysLastAndTextAfterNumbersDescendingToo() {
        List<String[]> sorted = TableOrder.sorted(rows(), 2, false, 0);
        assertEquals(List.of("900", "100", "80", "~", "1200", "1100"), column(sorted, 2));
        assertEquals(List.of("TOTAL", "TOTAL"), column(sorted.subList(4, 6), 0));
    }

    @Test
    void theFirstNumberOfACellCounts() {
        assertEquals(-3.5, TableOrder.number("-3.5% (p=0.03)"));
        assertEquals(12.0, TableOrder.number("[12.0, 14.5]"));
        assertEquals(true, Double.isNaN(TableOrder.number("~")));
        assertEquals(true, TableOrder.CELLS.compare("9", "10") < 0);
    }
}

package io.envbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class TableOrderTest {
    @Test
    void numbersSortAsNumbersNotAsTextAndTextComesAfter() {
        List<String> cells = new ArrayList<>(List.of("~", "100", "9", "baseline", "80.5", "-3.5% (p=0.03)"));
        cells.sort(TableOrder.CELLS);
        assertEquals(List.of("-3.5% (p=0.03)", "9", "80.5", "100", "baseline", "~"), cells);
    }

    @Test
    void theNumberACellStartsWithCounts() {
        assertEquals(-3.5, TableOrder.number("-3.5% (p=0.03)"));
        assertEquals(12.0, TableOrder.number("[12.0, 14.5]"));
        assertTrue(Double.isNaN(TableOrder.number("~")));
        assertTrue(Double.isNaN(TableOrder.number("~ p=0.485")), "a p-value is not the cell's figure");
        assertTrue(TableOrder.CELLS.compare("9", "10") < 0);
    }
}

package io.envbench.study.bonnie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** bonnie++'s CSV as Debian bookworm's bonnie++ 2.00a writes it (a line from a real run on this project's machine). */
class BonnieCsvTest {
    static final String REAL =
            "1.98,2.00a,host,1,1795329981,1G,,8192,5,,,309175,23,384750,18,,,624936,12,11795,29,16,,,,,"
                    + "+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,,419ms,437ms,,338ms,11976us,8038us,5728us,4584us,4053us,"
                    + "4633us,17610us";
    static final String WITH_FILES =
            "1.98,2.00a,cow,1,1700000000,1G,,8192,5,,,200000,20,100000,10,,,300000,8,900.5,12,128,,,,,"
                    + "41000,60,+++++,+++,52000,55,43000,61,98000,70,39000,58,,1s,2s,,3s,4ms,5ms,6ms,7ms,8ms,9ms,10ms";

    private static double value(BonnieCsv c, BonnieFigure f) {
        return c.figure(f).orElseThrow();
    }

    @Test
    void readsEveryBlockFigureAndLeavesOutWhatWasTooQuickOrSkipped() {
        BonnieCsv c = BonnieCsv.parse(REAL);
        assertEquals("host", c.name());
        assertEquals("1G", c.fileSize());
        assertEquals(309175, value(c, BonnieFigure.BLOCK_WRITE));
        assertEquals(23, value(c, BonnieFigure.BLOCK_WRITE_CPU));
        assertEquals(384750, value(c, BonnieFigure.REWRITE));
        assertEquals(624936, value(c, BonnieFigure.BLOCK_READ));
        assertEquals(11795, value(c, BonnieFigure.RANDOM_SEEKS));
        assertEquals(29, value(c, BonnieFigure.RANDOM_SEEKS_CPU));
        // +++++: too quick to time; bonnie++ gives no number, neither do we
        assertTrue(c.figure(BonnieFigure.SEQUENTIAL_CREATE).isEmpty());
        assertTrue(c.unmeasured().containsKey(BonnieFigure.SEQUENTIAL_CREATE));
        assertEquals(12, c.unmeasured().size());
        assertEquals(8, c.figures().size());
    }

    @Test
    void readsFileFiguresAndDecimals() {
        BonnieCsv c = BonnieCsv.parse(WITH_FILES);
        assertEquals(900.5, value(c, BonnieFigure.RANDOM_SEEKS));
        assertEquals(41000, value(c, BonnieFigure.SEQUENTIAL_CREATE));
        assertTrue(c.figure(BonnieFigure.SEQUENTIAL_STAT).isEmpty());
        assertEquals(52000, value(c, BonnieFigure.SEQUENTIAL_DELETE));
        assertEquals(58, value(c, BonnieFigure.RANDOM_DELETE_CPU));
        assertEquals("128", c.files());
    }

    @Test
    void findsTheResultLineAmongAWrappersMessages() {
        BonnieCsv c = BonnieCsv.find("Using uid:0, gid:0.\nWriting intelligently...done\n" + REAL + "\n");
        assertEquals(309175, value(c, BonnieFigure.BLOCK_WRITE));
    }

    @Test
    void saysWhatIsWrongWithOutputThatIsNoResult() {
        String none = assertThrows(
                        IllegalArgumentException.class,
                        () -> BonnieCsv.find("bonnie.sh: BONNIE_DIR '/nope' is not a writable folder\n"))
                .getMessage();
        assertTrue(none.contains("no bonnie++ result line") && none.contains("-q"), none);
        String old = assertThrows(IllegalArgumentException.class, () -> BonnieCsv.find("1.03e,1.03e,host,1,1,1G,,,,\n"))
                .getMessage();
        assertTrue(old.contains("format 1.03e") && old.contains("1.98"), old);
        String cut = assertThrows(IllegalArgumentException.class, () -> BonnieCsv.parse("1.98,2.00a,host"))
                .getMessage();
        assertTrue(cut.contains("3 columns"), cut);
        String word = assertThrows(
                        IllegalArgumentException.class, () -> BonnieCsv.parse(REAL.replace("309175", "fast")))
                .getMessage();
        assertTrue(word.contains("block write") && word.contains("'fast'"), word);
    }
}

package io.envbench.base.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.commons.io.IOUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WholeRowFileTest {
    @TempDir
    Path dir;

    @Test
    void aLastLineWithoutItsEndIsNoRow() throws IOException {
        Path f = dir.resolve("m.csv");
        Files.writeString(f, "a,b\n1,2\n3,");
        assertEquals(8, WholeRowFile.lengthOfWholeRows(f));
        try (Reader r = WholeRowFile.wholeRows(f)) {
            assertEquals("a,b\n1,2\n", IOUtils.toString(r));
        }
    }

    /** A writer that died mid-row: the next one does not append onto the cut row, it cuts it off first. */
    @Test
    void appendingAfterACutRowStartsALineOfItsOwn() throws IOException {
        Path f = dir.resolve("runs.csv");
        Files.writeString(f, "a,b\n1,2\n3,");
        try (WholeRowFile out = new WholeRowFile(f, false)) {
            assertEquals(2, out.cutRowDropped(), "the cut row's bytes");
            assertTrue(out.append("4,5\n"));
        }
        assertEquals("a,b\n1,2\n4,5\n", Files.readString(f));
        try (WholeRowFile whole = new WholeRowFile(f, false)) {
            assertEquals(0, whole.cutRowDropped(), "a file that ends with a whole row is kept as it is");
        }
        assertEquals("a,b\n1,2\n4,5\n", Files.readString(f));
    }

    @Test
    void rowsGoInAsUtf8FromAReusedBufferWhateverTheirLength() throws IOException {
        Path f = dir.resolve("rows.csv");
        StringBuilder row = new StringBuilder();
        String longRow = "é€,".repeat(3000) + "x\n"; // 2 + 3 + 1 bytes a repeat: 18 KB, beyond the first buffer
        String asciiRow = "12.345,".repeat(6000) + "z\n";
        try (WholeRowFile out = new WholeRowFile(f, true)) {
            row.append("a,b\n");
            assertTrue(out.append(row));
            row.setLength(0);
            row.append(longRow);
            assertTrue(out.append(row));
            row.setLength(0);
            row.append("1,2\n");
            assertTrue(out.append(row));
            row.setLength(0);
            row.append(asciiRow);
            assertTrue(out.append(row)); // ASCII goes a byte per char, also beyond the buffer
            assertEquals(4, out.rows());
        }
        assertEquals("a,b\n" + longRow + "1,2\n" + asciiRow, Files.readString(f));
    }

    /** The disk fills mid-row: the half that got in is cut off, the file stops and says why; later rows are dropped. */
    @Test
    void aFullDiskCutsTheHalfRowOffAndStopsTheFile() throws IOException {
        Path f = dir.resolve("m.csv");
        try (WholeRowFile out = new WholeRowFile(f, true, FullDiskChannel.withRoomFor(14))) {
            assertTrue(out.append("a,b\n"));
            assertTrue(out.append("1,2\n"));
            assertFalse(out.append("3,4567\n"), "the disk had room for half of it"); // 8 + 6 of 7 bytes
            assertEquals("no space left on device", out.stoppedBecause().orElseThrow());
            assertFalse(out.append("5,6\n"), "rows after the stop are dropped");
            assertEquals(2, out.rows());
        }
        assertEquals("a,b\n1,2\n", Files.readString(f), "the file ends at its last whole row");
    }

    @Test
    void anOutputThatCannotBeWrittenIsAnErrorNamingThePath() throws IOException {
        Path file = dir.resolve("jtl");
        Files.writeString(file, "x");
        IOException e =
                assertThrows(IOException.class, () -> OutputFolder.requireWritable(file, "run directory's folder"));
        assertTrue(e.getMessage().contains(file + " is a file where a folder should be"), e.getMessage());
    }
}

package io.envbench.measure.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The byte-level parsers of kernel files, on texts as the kernel writes them. */
class AsciiTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void numbersAndWords() {
        assertEquals(104857600, Ascii.firstLong(b("104857600\n"), 0, 10));
        assertEquals(-1, Ascii.firstLong(b("max\n"), 0, 4), "memory.max without a limit");
        assertEquals(-1, Ascii.firstLong(b(""), 0, 0));
    }

    @Test
    void countersFindWholeKeysOnly() {
        byte[] text = b("total_inactive_file 300\ninactive_file 100\nactive_file 7\n");
        long[] out = new long[3];
        Ascii.counters(
                text, text.length, new byte[][] {b("inactive_file"), b("total_inactive_file"), b("absent")}, out);
        assertArrayEquals(new long[] {100, 300, -1}, out);
    }

    @Test
    void netDevSumsEveryInterfaceButLo() {
        byte[] text = b("Inter-|   Receive                                                |  Transmit\n"
                + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
                + "    lo:  999 9 0 0 0 0 0 0  999 9 0 0 0 0 0 0\n"
                + "  eth0: 123456 100 0 0 0 0 0 0 654321 90 0 0 0 0 0 0\n"
                + "  eth1:1 1 0 0 0 0 0 0 2 1 0 0 0 0 0 0\n");
        long[] rxTx = new long[2];
        Ascii.netDevTotals(text, text.length, rxTx);
        assertArrayEquals(new long[] {123457, 654323}, rxTx);
    }

    @Test
    void blockIoOfBothCgroupVersions() throws Exception {
        long[] rw = new long[2];
        byte[] v1 = b("8:0 Read 4096\n8:0 Write 1000\n8:0 Sync 5\n8:16 Read 1\n8:16 Write 2\nTotal 5099\n");
        CgroupProbe.blkioV1(v1, v1.length, rw);
        assertArrayEquals(new long[] {4097, 1002}, rw);
        byte[] v2 = b(
                "8:0 rbytes=4096 wbytes=104857600 rios=1 wios=100 dbytes=0 dios=0\n253:0 rbytes=0 wbytes=1000 rios=0 wios=1\n");
        CgroupProbe.ioStatV2(v2, v2.length, rw);
        assertArrayEquals(new long[] {4096, 104858600}, rw);
        byte[] stat = b("cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 500 0 250 4000 50 0 0 0 0 0\n");
        assertEquals(96_000_000_000L, CgroupProbe.systemCpuNs(stat, stat.length));
    }
}

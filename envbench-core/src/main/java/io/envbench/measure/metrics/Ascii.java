package io.envbench.measure.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parsing of the kernel's text files (procfs, cgroupfs) straight from their bytes, without a String, a split
 * or a regular expression per reading: the collector reads dozens of such files every tick. Stateless.
 */
final class Ascii {
    private Ascii() {}

    /** The first unsigned number at or after {@code from}, skipping blanks; -1 when a non-blank non-digit comes first or none. */
    static long firstLong(byte[] b, int from, int end) {
        int i = skipBlanks(b, from, end);
        if (i >= end || !digit(b[i])) {
            return -1;
        }
        return longAt(b, i, end);
    }

    /** The digits starting at {@code i} as a number. */
    static long longAt(byte[] b, int i, int end) {
        long v = 0;
        while (i < end && digit(b[i])) {
            v = v * 10 + (b[i++] - '0');
        }
        return v;
    }

    static boolean digit(byte c) {
        return c >= '0' && c <= '9';
    }

    static int skipBlanks(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    /** The index after the next line end at or after {@code i}. */
    static int nextLine(byte[] b, int i, int end) {
        while (i < end && b[i] != '\n') {
            i++;
        }
        return i + 1;
    }

    /** Index after the number starting at {@code i} (digits). */
    static int skipDigits(byte[] b, int i, int end) {
        while (i < end && digit(b[i])) {
            i++;
        }
        return i;
    }

    /** Whether {@code key} followed by a blank starts at {@code i}. */
    static boolean keyAt(byte[] b, int i, int end, byte[] key) {
        if (i + key.length >= end) {
            return false;
        }
        for (int k = 0; k < key.length; k++) {
            if (b[i + k] != key[k]) {
                return false;
            }
        }
        return b[i + key.length] == ' ' || b[i + key.length] == '\t';
    }

    /** "key value" lines (cpu.stat, memory.stat): the value of each key into {@code out}, -1 for a key absent. */
    static void counters(byte[] b, int end, byte[][] keys, long[] out) {
        Arrays.fill(out, -1);
        for (int i = 0; i < end; i = nextLine(b, i, end)) {
            for (int k = 0; k < keys.length; k++) {
                if (out[k] < 0 && keyAt(b, i, end, keys[k])) {
                    out[k] = firstLong(b, i + keys[k].length, end);
                    break;
                }
            }
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether the bytes {@code [from, to)} equal {@code s} (ASCII). */
    static boolean equals(byte[] b, int from, int to, String s) {
        if (to - from != s.length()) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (b[from + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A net/dev file: bytes received and sent on every interface but lo, into {@code rxTx}. Lines after the two
     * header lines read "  name: rxBytes rxPackets (6 more) txBytes txPackets ...".
     */
    static void netDevTotals(byte[] b, int end, long[] rxTx) {
        rxTx[0] = 0;
        rxTx[1] = 0;
        int i = nextLine(b, nextLine(b, 0, end), end);
        for (; i < end; i = nextLine(b, i, end)) {
            int name = skipBlanks(b, i, end);
            int colon = name;
            while (colon < end && b[colon] != ':' && b[colon] != '\n') {
                colon++;
            }
            if (colon >= end || b[colon] != ':' || equals(b, name, colon, "lo")) {
                continue;
            }
            int p = colon + 1;
            for (int field = 0; field <= 8; field++) {
                p = skipBlanks(b, p, end);
                if (field == 0) {
                    rxTx[0] += longAt(b, p, end);
                } else if (field == 8) {
                    rxTx[1] += longAt(b, p, end);
                }
                p = skipDigits(b, p, end);
            }
        }
    }

    /** The first {@code n} numbers after the line's first word ("cpu  1 2 3 ..."), from {@code i}; returns the next line's index. */
    static int numbersAfterWord(byte[] b, int i, int end, long[] out, int n) {
        while (i < end && b[i] != ' ' && b[i] != '\n') {
            i++;
        }
        for (int k = 0; k < n; k++) {
            i = skipBlanks(b, i, end);
            if (i >= end || !digit(b[i])) {
                out[k] = 0;
                continue;
            }
            out[k] = longAt(b, i, end);
            i = skipDigits(b, i, end);
        }
        return nextLine(b, i, end);
    }
}

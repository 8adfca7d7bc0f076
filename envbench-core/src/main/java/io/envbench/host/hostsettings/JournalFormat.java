package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The journal's text: a header line, the owner's labels, then one line per change, fields separated by tabs, with
 * backslash, tab and line ends escaped ({@code \\}, {@code \t}, {@code \n}, {@code \r}).
 *
 * <pre>
 * # EnvBench host settings journal 1
 * owner	io.envbench.managed=true	io.envbench.run=1a2b3c4d	io.envbench.owner-host=...	...
 * file	/proc/irq/38/smp_affinity_list	0-1
 * paused	/proc	812	4711	irqbalance
 * restarted	unix:///var/run/docker.sock	{"argv":["dockerd"],...}
 * content	/etc/docker/daemon.json	absent
 * content	/etc/docker/daemon.json	rw-r--r--	eyJkZWJ1ZyI6IHRydWV9Cg==
 * </pre>
 *
 * A last line without its line end is a change that was being written down when the owner died, and so was never
 * made (the change follows the fsync of its line): it is left out. Any other damage refuses the whole file.
 */
final class JournalFormat {
    static final String HEADER = "# EnvBench host settings journal 1";
    static final String OWNER = "owner";
    static final String FILE = "file";
    static final String PAUSED = "paused";
    static final String CONTENT = "content";
    static final String RESTARTED = "restarted";
    /** The content field of a file that was absent. */
    static final String ABSENT = "absent";

    /** A journal read whole. */
    record Contents(Map<String, String> owner, List<Change> changes) {}

    private JournalFormat() {}

    static String ownerLine(Map<String, String> labels) {
        StringBuilder s = new StringBuilder(OWNER);
        labels.forEach((k, v) -> s.append('\t').append(escape(k + "=" + v)));
        return s.append('\n').toString();
    }

    static String line(Change change) {
        if (change instanceof Change.FileValue f) {
            return FILE + "\t" + escape(f.file().toString()) + "\t" + escape(f.before()) + "\n";
        }
        if (change instanceof Change.FileContent c) {
            return CONTENT + "\t" + escape(c.file().toString()) + "\t"
                    + c.before().map(o -> o.permissions() + "\t" + o.base64()).orElse(ABSENT) + "\n";
        }
        if (change instanceof Change.DaemonRestarted r) {
            return RESTARTED + "\t" + escape(r.daemonAddress()) + "\t" + escape(r.howItRuns()) + "\n";
        }
        Change.PausedProcess p = (Change.PausedProcess) change;
        return PAUSED + "\t" + escape(p.procRoot().toString()) + "\t" + p.pid() + "\t" + p.startTicks() + "\t"
                + escape(p.name()) + "\n";
    }

    static Contents read(Path journal) throws IOException {
        String text = new String(Files.readAllBytes(journal), StandardCharsets.UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        // the element after the last "\n" is "" for a whole file, else a line cut while it was written
        lines.remove(lines.size() - 1);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new DamagedJournalException(journal, 1, "does not start with '" + HEADER + "'");
        }
        if (lines.size() < 2 || !lines.get(1).startsWith(OWNER + "\t")) {
            throw new DamagedJournalException(journal, 2, "no owner line");
        }
        Map<String, String> owner = new LinkedHashMap<>();
        String[] ownerFields = lines.get(1).split("\t", -1);
        for (int i = 1; i < ownerFields.length; i++) {
            String label = unescape(journal, 2, ownerFields[i]);
            int eq = label.indexOf('=');
            if (eq <= 0) {
                throw new DamagedJournalException(journal, 2, "owner label '" + label + "' is not key=value");
            }
            owner.put(label.substring(0, eq), label.substring(eq + 1));
        }
        List<Change> changes = new ArrayList<>();
        for (int i = 2; i < lines.size(); i++) {
            changes.add(change(journal, i + 1, lines.get(i)));
        }
        return new Contents(owner, changes);
    }

    private static Change change(Path journal, int lineNo, String line) throws DamagedJournalException {
        String[] f = line.split("\t", -1);
        try {
            if (f[0].equals(FILE) && f.length == 3) {
                return new Change.FileValue(
                        absolute(journal, lineNo, unescape(journal, lineNo, f[1])), unescape(journal, lineNo, f[2]));
            }
            if (f[0].equals(PAUSED) && f.length == 5) {
                return new Change.PausedProcess(
                        absolute(journal, lineNo, unescape(journal, lineNo, f[1])),
                        Long.parseLong(f[2]),
                        Long.parseLong(f[3]),
                        unescape(journal, lineNo, f[4]));
            }
            if (f[0].equals(CONTENT) && f.length == 3 && f[2].equals(ABSENT)) {
                return new Change.FileContent(
                        absolute(journal, lineNo, unescape(journal, lineNo, f[1])), Optional.empty());
            }
            if (f[0].equals(CONTENT) && f.length == 4 && f[2].matches("[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]")) {
                Base64.getDecoder().decode(f[3]); // damaged Base64 refuses the journal now, not at put back
                return new Change.FileContent(
                        absolute(journal, lineNo, unescape(journal, lineNo, f[1])),
                        Optional.of(new Change.FileContent.Original(f[3], f[2])));
            }
            if (f[0].equals(RESTARTED) && f.length == 3) {
                return new Change.DaemonRestarted(unescape(journal, lineNo, f[1]), unescape(journal, lineNo, f[2]));
            }
        } catch (IllegalArgumentException e) { // a number or Base64 that is not one
            throw new DamagedJournalException(
                    journal, lineNo, "'" + line + "' has a number or Base64 content that is not one");
        }
        throw new DamagedJournalException(
                journal,
                lineNo,
                "'" + line + "' is not a change (file<TAB>path<TAB>value or "
                        + "paused<TAB>proc root<TAB>PID<TAB>start ticks<TAB>name or content<TAB>path<TAB>absent|mode<TAB>Base64 or "
                        + "restarted<TAB>daemon address<TAB>how it runs)");
    }

    private static Path absolute(Path journal, int lineNo, String path) throws DamagedJournalException {
        Path p = Path.of(path);
        if (!p.isAbsolute()) {
            throw new DamagedJournalException(journal, lineNo, "path '" + path + "' is not absolute");
        }
        return p;
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static String unescape(Path journal, int lineNo, String s) throws DamagedJournalException {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = i + 1 < s.length() ? s.charAt(++i) : '?';
            switch (next) {
                case '\\' -> out.append('\\');
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                default -> throw new DamagedJournalException(journal, lineNo, "'" + s + "' has a stray backslash");
            }
        }
        return out.toString();
    }
}

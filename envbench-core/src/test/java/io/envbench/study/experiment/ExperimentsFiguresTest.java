package io.envbench.study.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * EXPERIMENTS.md's tables that copy a kept report agree with it: each such table names its file (a backquoted path
 * under docs/experiments/ in the text just above it; a folder means its comparison.md), each row is found in that
 * file by its key cells, and every number of a checked cell equals the file's, to the rounding printed. Columns the
 * report does not hold (the study's own figures) are not checked. A table under a line of its own in bold (002's
 * "**insert (1,000 statements)**") is a part of the file: the file's rows under its "## " heading of that name; the
 * file named above the first part stands for the parts that follow it. A table of figures by place (003's, "figure
 * (host's median)" then a column per place) is read across: a row is the file's part of that figure's name, a column
 * the file's row of that place. A table by configuration and tenant (004's) may print several tenants in a row,
 * "tenant-1..3" with "a / b / c" in each cell, one per tenant. A table of tenants by configuration (004's second
 * series: "tenant", then a column per configuration) names the tenants and the figure in its first cell.
 */
class ExperimentsFiguresTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern SOURCE = Pattern.compile("`(docs/experiments/[^`]+?(?:\\.md|/))`");
    private static final Pattern PART = Pattern.compile("\\*\\*([^*]+)\\*\\*");
    private static final Pattern ACROSS_CELL = Pattern.compile("(\\d+)(?: \\(([^)]*)\\))?(?:, (\\d+) runs)?(.*)");
    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(?:,\\d{3})*(?:\\.\\d+)?");

    /** EXPERIMENTS.md's key columns and the report's column each stands for. */
    private static final Map<String, String> KEYS = Map.of(
            "operation",
            "label",
            "env",
            "environment",
            "configuration",
            "environment",
            "place",
            "place",
            "tenant",
            "tenant");

    /** A report's key columns: those KEYS stands for, and a tenants report's own. */
    private static final List<String> REPORT_KEYS = List.of("label", "environment", "place", "configuration", "tenant");

    /** EXPERIMENTS.md's figure columns of a table by configuration and tenant, and the report's column of each. */
    private static final Map<String, String> TENANT_FIGURES = Map.of(
            "throughput /s", "throughput /s",
            "mean ms", "mean ms",
            "90% line ms", "90% line ms (Aggregate Report)",
            "CPU % (1 core = 100)", "CPU % (1 core = 100)",
            "throughput vs none", "throughput vs baseline",
            "mean vs none", "mean vs baseline");

    /** A tenants-by-configuration row's figure, and the report's column of it. */
    private static final Map<String, String> TENANT_MEASURES = Map.of(
            "throughput /s", "throughput /s",
            "mean ms", "mean ms",
            "90% line ms", "90% line ms (Aggregate Report)",
            "CPU %", "CPU % (1 core = 100)");

    /**
     * A configuration's column: a control (none, static, dynamic), or a scenario's ("s3-static", the calibrated series;
     * "s3-spare", where the floating tenants ran).
     */
    private static final Pattern CONFIGURATION = Pattern.compile("(s\\d-)?(none|static|dynamic|all|spare)");

    private static final Pattern TENANTS = Pattern.compile("tenant-(\\d+)\\.\\.(\\d+)");

    /**
     * EXPERIMENTS.md's figure columns and the report's columns whose numbers they print, in order. A report's second
     * column of the same name is NAME#2 (the across-runs table has a 95% CI and a "vs baseline" for each figure).
     */
    private static final Map<String, List<String>> FIGURES = Map.ofEntries(
            Map.entry("count", List.of("count")),
            Map.entry("avg ms", List.of("average ms")),
            Map.entry("median ms", List.of("median ms")),
            Map.entry("90% ms", List.of("90% ms")),
            Map.entry("min", List.of("min ms")),
            Map.entry("max", List.of("max ms")),
            Map.entry("error %", List.of("error %")),
            Map.entry("/s", List.of("throughput /s")),
            Map.entry("KB/s", List.of("received KB/s")),
            Map.entry(
                    "90% ms, median of runs [95% CI]", List.of("90% ms (median of runs)", "95% CI#2", "vs baseline#2")),
            Map.entry("requests/s (median of runs)", List.of("throughput /s (median of runs)")),
            Map.entry("ratio to default [interval]", List.of("ratio to baseline", "interval of the ratio")),
            Map.entry("verdict", List.of("verdict")),
            Map.entry("docker-proxy CPU %", List.of("docker-proxy CPU % avg")),
            Map.entry("CPU µs per request (median of runs)", List.of("CPU µs per request (median of runs)", "95% CI")),
            Map.entry("CPU verdict", List.of("vs baseline")),
            Map.entry("elapsed s", List.of("elapsed s")),
            Map.entry("user s", List.of("user s")),
            Map.entry("sys s", List.of("sys s")),
            Map.entry("vs host", List.of("vs host")),
            Map.entry("vs same-container", List.of("vs same-container")),
            Map.entry("µs per statement", List.of("µs per statement")),
            Map.entry("verdict vs host", List.of("verdict vs host")),
            Map.entry("verdict vs same-container", List.of("verdict vs same-container")));

    @Test
    void tablesThatCopyAKeptReportAgreeWithIt() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("EXPERIMENTS.md"));
        List<String> disagreements = new ArrayList<>();
        int checkedTables = 0;
        String source = null;
        String part = null;
        boolean partsOnly = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#")) {
                source = null;
                part = null;
            }
            Matcher p = PART.matcher(line.strip());
            if (p.matches()) {
                part = p.group(1);
            }
            Matcher m = SOURCE.matcher(line);
            while (m.find()) {
                source = m.group(1);
            }
            if (!line.startsWith("|")) {
                continue;
            }
            int start = i;
            while (i < lines.size() && lines.get(i).startsWith("|")) {
                i++;
            }
            Table table = new Table(lines.subList(start, i), start + 1);
            if (source != null && (part != null || !partsOnly) && table.checkable()) {
                checkedTables++;
                Path file = ROOT.resolve(source.endsWith("/") ? source + "comparison.md" : source);
                if (table.across()) {
                    checkAcross(table, file, disagreements);
                } else if (table.tenantsByConfiguration()) {
                    checkTenantsByConfiguration(table, file, disagreements);
                } else if (table.byTenant()) {
                    checkTenants(table, file, disagreements);
                } else {
                    check(table, part, file, disagreements);
                }
            }
            if (part == null || source == null) {
                source = null;
                partsOnly = false;
            } else {
                partsOnly = true;
            }
            part = null;
            i--; // the line after the table is read by the loop
        }
        assertTrue(
                disagreements.isEmpty(),
                "EXPERIMENTS.md disagrees with its files:\n" + String.join("\n", disagreements));
        assertEquals(
                22,
                checkedTables,
                "tables checked (000 low, high and past the knee, 001's ten, 002 insert and select, 003, 004's six):"
                        + " a table lost its file?");
    }

    private static void check(Table table, String part, Path file, List<String> disagreements) throws IOException {
        Map<String, Map<String, String>> rows = reportRows(file);
        for (Row row : table.rows) {
            String key = (part == null ? "" : partName(part)) + table.key(row);
            Map<String, String> kept = rows.get(key);
            if (kept == null) {
                disagreements.add("EXPERIMENTS.md:" + row.line + ": no row " + key + " in " + file.normalize());
                continue;
            }
            for (int c = 0; c < table.header.size(); c++) {
                List<String> columns = FIGURES.get(table.header.get(c));
                if (columns == null || c >= row.cells.size()) {
                    continue;
                }
                String printed = row.cells.get(c);
                StringBuilder inFile = new StringBuilder();
                columns.forEach(col -> inFile.append(kept.getOrDefault(col, "")).append(' '));
                String problem = compare(numbers(printed), numbers(inFile.toString()));
                if (problem != null) {
                    disagreements.add("EXPERIMENTS.md:" + row.line + " " + key + " '" + table.header.get(c) + "': "
                            + printed + " against " + file.normalize() + ": "
                            + inFile.toString().trim() + " ("
                            + problem + ")");
                }
            }
        }
    }

    /**
     * A figure-by-place table: the row's "(host's median[, N host runs])" against the host's row; a cell's "% of host
     * (interval), N runs, verdict" against the place's row; "too quick" and "too few host runs" where the file says so.
     */
    private static void checkAcross(Table table, Path file, List<String> disagreements) throws IOException {
        Map<String, Map<String, String>> rows = reportRows(file);
        for (Row row : table.rows) {
            String label = row.cells().get(0);
            int paren = label.indexOf(" (");
            String figure = paren < 0 ? label : label.substring(0, paren);
            Map<String, String> host = rows.get(partName(figure) + "[host]");
            if (host == null) {
                disagreements.add("EXPERIMENTS.md:" + row.line + ": no " + figure + " for host in " + file.normalize());
                continue;
            }
            List<String[]> pairs = new ArrayList<>(); // label, printed, in the file
            if (paren >= 0) {
                List<String> shown = numbers(label.substring(paren));
                pairs.add(new String[] {"host", shown.isEmpty() ? "" : shown.get(0), host.getOrDefault("median", "")});
                if (label.contains("host runs") && shown.size() > 1) {
                    pairs.add(new String[] {"host", shown.get(1), host.getOrDefault("runs", "")});
                }
            }
            for (int c = 1; c < table.header.size() && c < row.cells().size(); c++) {
                String place = table.header.get(c);
                Map<String, String> kept = rows.get(partName(figure) + "[" + place + "]");
                String cell = row.cells().get(c).replace("**", "").strip();
                if (kept == null) {
                    disagreements.add("EXPERIMENTS.md:" + row.line + ": no " + figure + " for " + place + " in "
                            + file.normalize());
                    continue;
                }
                Matcher m = ACROSS_CELL.matcher(cell);
                if (cell.contains("too quick")) {
                    pairs.add(new String[] {place, cell, kept.getOrDefault("median", "")});
                    if (!kept.getOrDefault("median", "").contains("too quick")) {
                        pairs.add(new String[] {place, cell + " (not too quick in the file)", ""});
                    }
                } else if (m.matches()) {
                    pairs.add(new String[] {place, m.group(1), kept.getOrDefault("% of host", "")});
                    if (m.group(2) != null) {
                        pairs.add(new String[] {place, m.group(2), kept.getOrDefault("interval, % of host", "")});
                    }
                    if (m.group(3) != null) {
                        pairs.add(new String[] {place, m.group(3), kept.getOrDefault("runs", "")});
                    }
                    String verdict = m.group(4).replaceFirst("^,", "").strip();
                    if (verdict.contains("too few host runs")) {
                        if (!kept.getOrDefault("vs host", "").contains("too few runs")) {
                            pairs.add(new String[] {place, verdict + " (not too few in the file)", ""});
                        }
                    } else {
                        pairs.add(new String[] {place, verdict, kept.getOrDefault("vs host", "")});
                    }
                } else {
                    pairs.add(new String[] {place, cell + " (not a figure)", ""});
                }
            }
            for (String[] pair : pairs) {
                String problem = compare(numbers(pair[1]), numbers(pair[2]));
                if (pair[1].endsWith(" in the file)") || pair[1].endsWith("(not a figure)")) {
                    problem = pair[1];
                }
                if (problem != null) {
                    disagreements.add("EXPERIMENTS.md:" + row.line + " " + figure + " [" + pair[0] + "]: " + pair[1]
                            + " against " + file.normalize() + ": " + pair[2] + " (" + problem + ")");
                }
            }
        }
    }

    /**
     * A table by configuration and tenant: a row of "tenant-1..3" prints "a / b / c" for tenant-1, -2 and -3 (one
     * value alone stands for each); a "~" verdict must be the file's too.
     */
    private static void checkTenants(Table table, Path file, List<String> disagreements) throws IOException {
        Map<String, Map<String, String>> rows = reportRows(file);
        int configuration = table.header.indexOf("configuration");
        int tenant = table.header.indexOf("tenant");
        for (Row row : table.rows) {
            String tenantCell = row.cells().get(tenant).replaceFirst(" \\(.*", "");
            List<String> tenants = new ArrayList<>();
            Matcher range = TENANTS.matcher(tenantCell);
            if (range.matches()) {
                for (int t = Integer.parseInt(range.group(1)); t <= Integer.parseInt(range.group(2)); t++) {
                    tenants.add("tenant-" + t);
                }
            } else {
                tenants.add(tenantCell);
            }
            for (int k = 0; k < tenants.size(); k++) {
                String key = "[" + row.cells().get(configuration) + "][" + tenants.get(k) + "]";
                Map<String, String> kept = rows.get(key);
                if (kept == null) {
                    disagreements.add("EXPERIMENTS.md:" + row.line + ": no row " + key + " in " + file.normalize());
                    continue;
                }
                for (int c = 0; c < table.header.size() && c < row.cells().size(); c++) {
                    String column = TENANT_FIGURES.get(table.header.get(c));
                    if (column == null) {
                        continue;
                    }
                    String[] values = row.cells().get(c).split(" / ");
                    String printed = values.length == tenants.size()
                            ? values[k]
                            : values.length == 1 ? values[0] : row.cells().get(c);
                    printed = printed.replace("**", "").strip();
                    String inFile = kept.getOrDefault(column, "");
                    String problem = values.length == 1 || values.length == tenants.size()
                            ? compare(numbers(printed), numbers(inFile))
                            : values.length + " values for " + tenants.size() + " tenants";
                    if (problem == null && printed.startsWith("~") && !inFile.startsWith("~")) {
                        problem = "~ is not " + inFile;
                    }
                    if (problem != null) {
                        disagreements.add("EXPERIMENTS.md:" + row.line + " " + key + " '" + table.header.get(c)
                                + "': " + printed + " against " + file.normalize() + ": " + inFile + " (" + problem
                                + ")");
                    }
                }
            }
        }
    }

    /**
     * A table of tenants by configuration: the first cell names the tenants ("tenant-4 (high)", "tenant-1..3",
     * "tenant-1 / tenant-2") and the figure ("mean ms"; a row without one has the row above's), or is "host CPU %";
     * each configuration's cell prints a value per tenant. The verdict columns are not checked.
     */
    private static void checkTenantsByConfiguration(Table table, Path file, List<String> disagreements)
            throws IOException {
        Map<String, Map<String, String>> rows = reportRows(file);
        String measure = null;
        for (Row row : table.rows) {
            String label = row.cells().get(0);
            List<String> tenants = new ArrayList<>();
            String column;
            if (label.equals("host CPU %")) {
                tenants.add(null);
                column = "host CPU % (all CPUs = 100)";
            } else {
                for (String piece : label.split(", ")) {
                    String name = piece.replaceFirst(" \\(.*", "").strip();
                    Matcher range = TENANTS.matcher(name);
                    if (range.matches()) {
                        for (int t = Integer.parseInt(range.group(1)); t <= Integer.parseInt(range.group(2)); t++) {
                            tenants.add("tenant-" + t);
                        }
                    } else if (name.startsWith("tenant-")) {
                        tenants.addAll(List.of(name.split(" / ")));
                    } else {
                        measure = name;
                    }
                }
                column = measure == null ? null : TENANT_MEASURES.get(measure);
            }
            if (tenants.isEmpty() || column == null) {
                disagreements.add("EXPERIMENTS.md:" + row.line + ": cannot read the tenants and figure of " + label);
                continue;
            }
            for (int c = 1; c < table.header.size() && c < row.cells().size(); c++) {
                String configuration = table.header.get(c);
                if (!CONFIGURATION.matcher(configuration).matches()) {
                    continue;
                }
                String[] values = row.cells().get(c).split(" / ");
                for (int k = 0; k < tenants.size(); k++) {
                    String key = "[" + configuration + "]" + (tenants.get(k) == null ? "" : "[" + tenants.get(k) + "]");
                    Map<String, String> kept = rows.get(key);
                    String inFile = kept == null ? "(no row " + key + ")" : kept.getOrDefault(column, "");
                    String printed = values.length == tenants.size()
                            ? values[k]
                            : row.cells().get(c);
                    String problem = values.length == tenants.size()
                            ? compare(numbers(printed), numbers(inFile))
                            : values.length + " values for " + tenants.size() + " tenants";
                    if (kept == null) {
                        problem = "no such row";
                    }
                    if (problem != null) {
                        disagreements.add("EXPERIMENTS.md:" + row.line + " " + key + " '" + label + "': " + printed
                                + " against " + file.normalize() + ": " + inFile + " (" + problem + ")");
                    }
                }
            }
        }
    }

    /** Null when each printed number is the file's, in order, to the printed number's last decimal. */
    static String compare(List<String> printed, List<String> inFile) {
        if (printed.size() > inFile.size()) {
            return printed.size() + " numbers printed, " + inFile.size() + " in the file";
        }
        for (int k = 0; k < printed.size(); k++) {
            BigDecimal shown = new BigDecimal(printed.get(k));
            BigDecimal kept = new BigDecimal(inFile.get(k));
            BigDecimal halfUnit = new BigDecimal("0.5").movePointLeft(Math.max(shown.scale(), 0));
            if (shown.subtract(kept).abs().compareTo(halfUnit.add(new BigDecimal("1e-9"))) > 0) {
                return printed.get(k) + " is not " + inFile.get(k);
            }
        }
        return null;
    }

    static List<String> numbers(String text) {
        List<String> found = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            found.add(m.group().replace(",", "").replace("+", ""));
        }
        return found;
    }

    /** Every row of every table of a report, by its key cells; a repeated column name gets #2. */
    private static Map<String, Map<String, String>> reportRows(Path file) throws IOException {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file);
        String part = "";
        String shortPart = "";
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("## ")) {
                String title = lines.get(i).substring(3);
                part = partName(title);
                shortPart = partName(title.contains(" (") ? title.substring(0, title.indexOf(" (")) : title);
            }
            if (!lines.get(i).startsWith("|")) {
                continue;
            }
            int start = i;
            while (i < lines.size() && lines.get(i).startsWith("|")) {
                i++;
            }
            List<String> header = uniqueNames(cells(lines.get(start)).stream()
                    .map(ExperimentsFiguresTest::withoutUnitNote)
                    .toList());
            List<String> keyColumns =
                    header.stream().filter(REPORT_KEYS::contains).toList();
            for (String line : lines.subList(start + 2, i)) {
                List<String> cells = cells(line);
                Map<String, String> row = new LinkedHashMap<>();
                for (int c = 0; c < header.size() && c < cells.size(); c++) {
                    row.put(header.get(c), cells.get(c));
                }
                StringBuilder key = new StringBuilder();
                keyColumns.forEach(k -> key.append('[').append(row.get(k)).append(']'));
                rows.computeIfAbsent(key.toString(), k -> new LinkedHashMap<>()).putAll(row);
                rows.computeIfAbsent(part + key, k -> new LinkedHashMap<>()).putAll(row);
                rows.computeIfAbsent(shortPart + key, k -> new LinkedHashMap<>())
                        .putAll(row);
            }
        }
        return rows;
    }

    /**
     * A report header as the older reports printed it: later reports say in the header what 100% and 1 mean ("CPU %
     * of one core (one core = 100) avg", "ratio to baseline (baseline = 1)", "throughput requests/s"), and which
     * figure a run table's interval and change belong to ("90% 95% CI, ms"); the figure is the same.
     */
    static String withoutUnitNote(String header) {
        return header.replace(" of one core (one core = 100)", "")
                .replace(" of the whole machine (all cores = 100)", "")
                .replace(" (baseline = 1)", "")
                .replace("throughput requests/s", "throughput /s")
                .replace("error % (of samples)", "error %")
                .replaceFirst(
                        "^(?:throughput|90%) (95% CI|vs baseline)(?:, requests/s|, ms| \\(% change of medians\\))$",
                        "$1");
    }

    /** A part's name as a key: "insert (1,000 statements)" and "insert (1000 statements)" are one part. */
    static String partName(String title) {
        return "{" + title.strip().replace(",", "").toLowerCase(Locale.ROOT) + "}";
    }

    private static List<String> uniqueNames(List<String> header) {
        List<String> names = new ArrayList<>();
        for (String h : header) {
            names.add(names.contains(h) ? h + "#2" : h);
        }
        return names;
    }

    static List<String> cells(String line) {
        String inner = line.strip();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.strip());
        }
        return cells;
    }

    private record Row(int line, List<String> cells) {}

    private static final class Table {
        final List<String> header;
        final List<Row> rows = new ArrayList<>();

        Table(List<String> lines, int firstLine) {
            header = cells(lines.get(0));
            for (int k = 2; k < lines.size(); k++) {
                rows.add(new Row(firstLine + k, cells(lines.get(k))));
            }
        }

        /** A table of tenants by configuration: "tenant", then a column per configuration. */
        boolean tenantsByConfiguration() {
            return header.get(0).equals("tenant")
                    && header.stream()
                            .skip(1)
                            .anyMatch(h -> CONFIGURATION.matcher(h).matches());
        }

        /** A table by configuration and tenant. */
        boolean byTenant() {
            return header.contains("configuration") && header.contains("tenant");
        }

        /** A table of figures by place: "figure (host's median)", then a column per place. */
        boolean across() {
            return header.get(0).startsWith("figure (");
        }

        /** A table with key columns and figures a report holds, or of figures by place. */
        boolean checkable() {
            return across()
                    || byTenant()
                    || tenantsByConfiguration()
                    || header.stream().anyMatch(KEYS::containsKey)
                            && header.stream().anyMatch(FIGURES::containsKey);
        }

        /** The row's key as the report's rows are keyed: its key cells in the report's column order. */
        String key(Row row) {
            StringBuilder key = new StringBuilder();
            for (int c = 0; c < header.size(); c++) {
                if (KEYS.containsKey(header.get(c))) {
                    key.append('[').append(row.cells().get(c)).append(']');
                }
            }
            return key.toString();
        }
    }
}

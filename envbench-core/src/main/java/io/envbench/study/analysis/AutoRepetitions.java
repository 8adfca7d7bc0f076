package io.envbench.study.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.envbench.measure.stats.AcrossRuns;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.study.experiment.Repetitions;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * {@code repetitions: auto}: after each round from the minimum on, whether the runs so far know every judged figure
 * (throughput and 90% of every label, TOTAL where there are several, of every environment) well enough, by the 95%
 * interval of its median across runs, the interval the report's tables show; and the file that keeps each decision
 * ({@code rounds.csv} of the run directory), so that {@code --resume} and the report know where the runs ended and why.
 * Stateless.
 */
public final class AutoRepetitions {
    static final String HEADER = "round,widest,widestPct,decision";
    private static final String STOP = "stop: ";
    private static final String CONTINUE = "continue: ";
    private static final CSVFormat FORMAT =
            CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build();

    private AutoRepetitions() {}

    /**
     * What one round's runs showed.
     *
     * @param round     the rounds completed
     * @param widest    the figure with the widest interval, e.g. "p90 of GET / on docker-bridge"
     * @param widestPct its interval's width end to end in % of its median; infinite where it has none yet
     * @param stop      whether the runs end here
     * @param why       why they end or go on, for the console and the report
     */
    public record Decision(int round, String widest, double widestPct, boolean stop, String why) {}

    /**
     * The decision after {@code round} complete rounds whose figures are {@code c}.
     *
     * @param environments every environment compared: one without samples yet has no interval, so the runs go on
     * @param r an automatic {@link Repetitions}
     */
    public static Decision judge(Comparison c, List<String> environments, Repetitions r, int round) {
        String widest = "no figure";
        double widestPct = Double.POSITIVE_INFINITY;
        boolean any = false;
        for (String env : environments) {
            if (!c.environments().contains(env)) {
                widest = "every figure of " + env + " (no completed run)";
                widestPct = Double.POSITIVE_INFINITY;
                any = true;
                break;
            }
        }
        AcrossRuns rows = c.environments().isEmpty() ? null : new AcrossRuns(c, null);
        for (String env : any ? List.<String>of() : c.environments()) {
            for (String label : c.rows()) {
                if (!label.equals(rows.judgedRow(label))) {
                    continue;
                }
                for (Figure f : AcrossRuns.JUDGED) {
                    RunStatistics runs = c.acrossRuns(env, label, f);
                    if (runs.runs() == 0) {
                        continue;
                    }
                    double pct = widthPct(runs, f);
                    if (!any || pct > widestPct) {
                        widest = f.criterionName() + " of " + label + " on " + env;
                        widestPct = pct;
                        any = true;
                    }
                }
            }
        }
        String width = Repetitions.widthText(r.intervalWidthPct());
        String found = Double.isInfinite(widestPct)
                ? widest + " has no interval yet (it needs " + RunStatistics.runsNeededForMedianInterval()
                        + " completed runs)"
                : String.format(Locale.ROOT, "widest: %s, %.1f%%", widest, widestPct);
        if (round >= r.min() && any && widestPct <= r.intervalWidthPct()) {
            return new Decision(
                    round, widest, widestPct, true, "every 95% interval within " + width + " (" + found + ")");
        }
        if (round >= r.max()) {
            return new Decision(
                    round,
                    widest,
                    widestPct,
                    true,
                    "maxRepetitions " + r.max() + " reached before every 95% interval was within " + width + " ("
                            + found + ")");
        }
        return new Decision(
                round,
                widest,
                widestPct,
                false,
                round < r.min()
                        ? "below minRepetitions " + r.min()
                        : "not every 95% interval within " + width + " yet (" + found + ")");
    }

    /**
     * The interval of the median, end to end, in % of it: infinite without one (too few runs), or around a median of 0.
     * A response time's interval no wider than one millisecond, JMeter's resolution, is as narrow as it can be: 0.
     */
    static double widthPct(RunStatistics runs, Figure f) {
        RunStatistics.MedianInterval ci = runs.medianCi95();
        if (!ci.available()) {
            return Double.POSITIVE_INFINITY;
        }
        double span = ci.high() - ci.low();
        if (span == 0 || f.unit().equals("ms") && span <= RESOLUTION_MS) {
            return 0;
        }
        return runs.median() > 0 ? 100 * span / runs.median() : Double.POSITIVE_INFINITY;
    }

    /** JMeter records response times in whole milliseconds. */
    static final double RESOLUTION_MS = 1;

    /** The last round {@code file} records a decision for; 0 without one. */
    public static int lastRound(Path file) throws IOException {
        int last = 0;
        for (CSVRecord r : rows(file)) {
            last = Math.max(last, Integer.parseInt(r.get("round")));
        }
        return last;
    }

    /** Adds a decision to {@code file} (a header first), a whole line at a time. */
    public static void append(Path file, Decision d) throws IOException {
        StringBuilder line = new StringBuilder();
        if (!Files.exists(file)) {
            line.append(HEADER).append('\n');
        }
        try (CSVPrinter p = new CSVPrinter(line, FORMAT)) {
            p.printRecord(
                    d.round(),
                    d.widest(),
                    Double.isInfinite(d.widestPct()) ? "" : String.format(Locale.ROOT, "%.2f", d.widestPct()),
                    (d.stop() ? STOP : CONTINUE) + d.why());
        }
        Files.writeString(
                file, line.toString(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * The round where the runs of a directory ended, and why, when {@code file} records a stop; a last line cut short
     * (no line end) is not read.
     */
    public static Optional<Stop> stoppedAt(Path file) throws IOException {
        for (CSVRecord r : rows(file)) {
            String decision = r.get("decision");
            if (decision.startsWith(STOP)) {
                return Optional.of(new Stop(Integer.parseInt(r.get("round")), decision.substring(STOP.length())));
            }
        }
        return Optional.empty();
    }

    /** The whole rows of {@code file} (none when it is missing); a last line cut short is not read. */
    private static List<CSVRecord> rows(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String whole = text.substring(0, text.lastIndexOf('\n') + 1);
        try (CSVParser rows = CSVParser.parse(
                whole, FORMAT.builder().setHeader().setSkipHeaderRecord(true).build())) {
            List<CSVRecord> records = rows.getRecords();
            for (CSVRecord r : records) {
                Integer.parseInt(r.get("round")); // a damaged row is said here, with the file's name
                r.get("decision");
            }
            return records;
        } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
            throw new IOException(
                    file + " is not a rounds file (" + HEADER + "): " + e.getMessage()
                            + "; delete it to run every round again",
                    e);
        }
    }

    /** Where an automatic experiment ended: after {@code round} rounds, because {@code why}. */
    public record Stop(int round, String why) {}
}

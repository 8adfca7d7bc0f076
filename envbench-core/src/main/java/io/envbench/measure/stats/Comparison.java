package io.envbench.measure.stats;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.measure.results.JtlReader;
import io.envbench.measure.results.Sample;

/**
 * Statistics per environment x label (plus a Total per environment), pooled over all runs and per run,
 * and a per-second timeline per environment, from one or more JTLs. Each file is one run (repetition), named
 * as {@link RunNames} says: after the file, or by its folder when file names clash; two files never make one run.
 * Streaming: memory grows with distinct labels, seconds and elapsed values.
 */
public final class Comparison {
    public static final String TOTAL = "TOTAL";

    private final Map<String, Map<String, Map<String, SampleStatistics>>> byRun = new LinkedHashMap<>();
    /** Pooled over runs; merged from byRun when first asked for after a change. */
    private Map<String, Map<String, SampleStatistics>> pooled;

    private final Map<String, TreeMap<Long, long[]>> timeline = new LinkedHashMap<>();
    private final Map<String, Long> origin = new LinkedHashMap<>();
    private final Set<String> labels = new LinkedHashSet<>();

    public static Comparison of(Iterable<Path> jtls) throws IOException {
        return of(jtls, label -> true);
    }

    /**
     * Reads the files side by side, one per core, each into figures of its own, then adds those up in the files' order:
     * the same runs, labels, figures and timeline as reading one file after the other.
     *
     * @param keepLabel which labels to keep (the others are skipped, as JMeter's report sample_filter does); called
     *     from several threads at once
     */
    public static Comparison of(Iterable<Path> jtls, Predicate<String> keepLabel) throws IOException {
        return of(jtls, keepLabel, Runtime.getRuntime().availableProcessors());
    }

    /** As {@link #of(Iterable, Predicate)}, reading at most {@code threads} files at once. */
    static Comparison of(Iterable<Path> jtls, Predicate<String> keepLabel, int threads) throws IOException {
        List<Path> files = new ArrayList<>();
        jtls.forEach(files::add);
        Comparison c = new Comparison();
        if (files.size() < 2 || threads < 2) {
            for (Path p : files) {
                c.addFile(p, keepLabel);
            }
            return c;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, files.size()), r -> {
            Thread t = new Thread(r, "envbench-read-files");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Comparison>> read = new ArrayList<>();
            for (Path p : files) {
                read.add(pool.submit(() -> {
                    Comparison one = new Comparison();
                    one.read(p, keepLabel, Duration.ZERO, ONE_RUN);
                    return one;
                }));
            }
            for (int i = 0; i < files.size(); i++) {
                Future<Comparison> one = read.get(i);
                c.addFile(files.get(i), (into, run) -> into.addRun(done(one), run));
                read.set(i, null); // its figures are c's now
            }
            return c;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The run name of a comparison read from one file, before it is added to another under the run's own name. */
    private static final String ONE_RUN = "run";

    /** A file read by another thread, its failure thrown as reading it here would have thrown it. */
    private static Comparison done(Future<Comparison> read) throws IOException {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading result files");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Adds the figures of a comparison read from one file ({@link #ONE_RUN}) as the run {@code run}, as if its samples
     * had been added here: its environments and labels after those already here, its timeline added second by second.
     */
    private void addRun(Comparison one, String run) {
        one.byRun.forEach((env, runs) -> {
            Map<String, Map<String, SampleStatistics>> here = byRun.computeIfAbsent(env, e -> new LinkedHashMap<>());
            if (here.putIfAbsent(run, runs.get(ONE_RUN)) != null) {
                throw new IllegalStateException("run " + run + " of " + env + " was read already");
            }
        });
        one.origin.forEach((key, o) -> origin.put(key.substring(0, key.length() - ONE_RUN.length()) + run, o));
        one.timeline.forEach((env, seconds) -> {
            TreeMap<Long, long[]> here = timeline.computeIfAbsent(env, e -> new TreeMap<>());
            seconds.forEach((second, v) -> {
                long[] sum = here.computeIfAbsent(second, x -> new long[3]);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += v[i];
                }
            });
        });
        labels.addAll(one.labels);
        lastEnv = null; // the cached lookups are of another run
        pooled = null;
    }

    /** Reads a file's samples into this comparison, or a comparison of its own. */
    @FunctionalInterface
    private interface RunReader {
        void read(Comparison into, String run) throws IOException;
    }

    /** Run name -> the result file it was read from, for runs read from files; in order of reading. */
    private final Map<String, Path> runFiles = new LinkedHashMap<>();
    /** The same files as given, by where they really are: one file given twice is one run, not two. */
    private final Map<Path, Path> realFiles = new LinkedHashMap<>();

    /**
     * Reads a result file as one run of its own, named as {@link RunNames} says. A file whose name clashes with one
     * read before renames that run too (both by their folders), so the names never depend on the order of reading.
     *
     * @return the run's name
     * @throws IOException naming the file when it was read already, or cannot be read
     */
    public String addFile(Path file, Predicate<String> keepLabel) throws IOException {
        return addFile(file, keepLabel, Duration.ZERO);
    }

    /**
     * As {@link #addFile(Path, Predicate)}, leaving out the samples that start within {@code warmup} of the file's
     * first sample: the runner's rule for a run's warm-up, so a run's file counts here as in its report.
     */
    public String addFile(Path file, Predicate<String> keepLabel, Duration warmup) throws IOException {
        return addFile(file, (into, run) -> into.read(file, keepLabel, warmup, run));
    }

    private String addFile(Path file, RunReader reader) throws IOException {
        Path real =
                Files.exists(file) ? file.toRealPath() : file.toAbsolutePath().normalize();
        Path before = realFiles.get(real);
        if (before != null) {
            throw new IOException(file + ": given twice (also as " + before + "); its samples would count twice. "
                    + "Give each run's file once");
        }
        Set<String> fromNoFile = new LinkedHashSet<>();
        byRun.values().forEach(runs -> fromNoFile.addAll(runs.keySet()));
        fromNoFile.removeAll(runFiles.keySet());
        List<Path> files = new ArrayList<>(runFiles.values());
        files.add(file);
        Map<Path, String> names = RunNames.of(files, fromNoFile);
        Map<String, Path> renamed = new LinkedHashMap<>();
        runFiles.forEach((run, f) -> {
            renamed.put(names.get(f), f);
            if (!names.get(f).equals(run)) {
                renameRun(run, names.get(f));
            }
        });
        String run = names.get(file);
        renamed.put(run, file);
        runFiles.clear();
        runFiles.putAll(renamed);
        realFiles.put(real, file);
        reader.read(this, run);
        return run;
    }

    /** Adds a file's samples as the run {@code run}, those of its warm-up and of labels not kept left out. */
    private void read(Path file, Predicate<String> keepLabel, Duration warmup, String run) throws IOException {
        long cutoffMs = Long.MIN_VALUE;
        if (!warmup.isZero()) {
            long[] first = {Long.MAX_VALUE};
            JtlReader.read(file, s -> first[0] = Math.min(first[0], s.startMs()));
            cutoffMs = first[0] == Long.MAX_VALUE ? Long.MIN_VALUE : first[0] + warmup.toMillis();
        }
        long from = cutoffMs;
        JtlReader.read(file, s -> {
            if (s.startMs() >= from && keepLabel.test(s.label())) {
                add(s, run);
            }
        });
    }

    /** Run name -> the result file that made it, for the runs read from files ({@link #addFile}). */
    public Map<String, Path> runFiles() {
        return Collections.unmodifiableMap(runFiles);
    }

    private void renameRun(String from, String to) {
        byRun.replaceAll((env, runs) -> {
            Map<String, Map<String, SampleStatistics>> m = new LinkedHashMap<>();
            runs.forEach((run, stats) -> m.put(run.equals(from) ? to : run, stats));
            return m;
        });
        Long o;
        for (String env : byRun.keySet()) {
            if ((o = origin.remove(env + "\u0000" + from)) != null) {
                origin.put(env + "\u0000" + to, o);
            }
        }
        lastEnv = null; // the cached lookups may name the old run
        pooled = null;
    }

    public void add(Sample s) {
        add(s, "run");
    }

    // samples come in long stretches of one environment, run and label: remember the last lookups
    private String lastEnv;
    private String lastRun;
    private String lastLabel;
    private Map<String, SampleStatistics> lastRunStats;
    private SampleStatistics lastLabelStats;
    private SampleStatistics lastTotalStats;
    private TreeMap<Long, long[]> lastTimeline;
    private long lastOrigin;
    // and they end in long stretches of one second: the timeline's entry for it
    private long lastSecond;
    private long[] lastSecondCounts;

    /**
     * @throws InvalidSettingException when the sample's label is {@value #TOTAL}: its figures would be counted twice
     *                                 into the row EnvBench adds for all labels together
     */
    public void add(Sample s, String run) {
        if (!s.environment().equals(lastEnv) || !run.equals(lastRun)) {
            lastEnv = s.environment();
            lastRun = run;
            lastRunStats = byRun.computeIfAbsent(lastEnv, e -> new LinkedHashMap<>())
                    .computeIfAbsent(run, x -> new LinkedHashMap<>());
            lastTotalStats = lastRunStats.computeIfAbsent(TOTAL, l -> new SampleStatistics());
            lastTimeline = timeline.computeIfAbsent(lastEnv, e -> new TreeMap<>());
            lastOrigin = origin.computeIfAbsent(lastEnv + "\u0000" + run, k -> s.startMs());
            lastLabel = null;
            lastSecondCounts = null;
        }
        if (!s.label().equals(lastLabel)) {
            if (s.label().equals(TOTAL)) {
                throw labelledTotal();
            }
            lastLabel = s.label();
            labels.add(lastLabel);
            lastLabelStats = lastRunStats.computeIfAbsent(lastLabel, l -> new SampleStatistics());
        }
        lastLabelStats.add(s);
        lastTotalStats.add(s);
        long sec = Math.floorDiv(s.startMs() + s.elapsedMs() - lastOrigin, 1000);
        if (lastSecondCounts == null || sec != lastSecond) {
            lastSecond = sec;
            lastSecondCounts = lastTimeline.computeIfAbsent(sec, x -> new long[3]);
        }
        long[] second = lastSecondCounts;
        second[0]++;
        second[1] += s.elapsedMs();
        if (!s.success()) {
            second[2]++;
        }
        pooled = null;
    }

    /** The one message for a sample label that is the name of the row EnvBench adds itself. */
    public static InvalidSettingException labelledTotal() {
        return new InvalidSettingException(
                "label",
                "a sample is labelled '" + TOTAL + "', the name of the row EnvBench adds for all "
                        + "labels together; rename that sampler in the plan, e.g. 'Total page'");
    }

    private Map<String, Map<String, SampleStatistics>> pooled() {
        if (pooled == null) {
            Map<String, Map<String, SampleStatistics>> p = new LinkedHashMap<>();
            byRun.forEach((env, runs) -> {
                Map<String, SampleStatistics> m = p.computeIfAbsent(env, e -> new LinkedHashMap<>());
                runs.values()
                        .forEach(run -> run.forEach((label, st) -> m.computeIfAbsent(label, l -> new SampleStatistics())
                                .addAll(st)));
            });
            pooled = p;
        }
        return pooled;
    }

    public Set<String> environments() {
        return byRun.keySet();
    }

    /** Labels in order of first appearance, without TOTAL. */
    public Set<String> labels() {
        return labels;
    }

    /** Labels then TOTAL. */
    public List<String> rows() {
        List<String> r = new ArrayList<>(labels);
        r.add(TOTAL);
        return r;
    }

    public SampleStatistics get(String environment, String label) {
        return pooled().getOrDefault(environment, Map.of()).get(label);
    }

    /** Run ids of an environment, in order of appearance. */
    public List<String> runs(String environment) {
        return new ArrayList<>(byRun.getOrDefault(environment, Map.of()).keySet());
    }

    public SampleStatistics get(String environment, String run, String label) {
        return byRun.getOrDefault(environment, Map.of())
                .getOrDefault(run, Map.of())
                .get(label);
    }

    /** One figure of every run of an environment x label that has samples of it (none for an unknown one). */
    public RunStatistics acrossRuns(String environment, String label, Figure figure) {
        return acrossRuns(environment, label, figure::of);
    }

    /**
     * Any figure of a run's statistics (e.g. received KB/s), of every run of an environment x label that has samples
     * of it (none for an unknown one).
     */
    public RunStatistics acrossRuns(String environment, String label, ToDoubleFunction<SampleStatistics> figure) {
        List<Double> values = new ArrayList<>();
        for (String run : runs(environment)) {
            SampleStatistics s = get(environment, run, label);
            if (s != null) {
                values.add(figure.applyAsDouble(s));
            }
        }
        return RunStatistics.of(values);
    }

    /**
     * Seconds since the environment's first sample (per run, runs overlaid) -> {count, sum of elapsed ms, errors}
     * of the samples that ended in that second.
     */
    public TreeMap<Long, long[]> timeline(String environment) {
        return timeline.getOrDefault(environment, new TreeMap<>());
    }

    /**
     * Everything the figures are computed from, per environment, run and label, without the samples: what a run's
     * {@code summary.json} keeps so that a finished run opens without reading its result files again.
     *
     * @param byRun    environment -> run -> label (and {@value #TOTAL}) -> its statistics
     * @param timeline environment -> second -> {count, sum of elapsed ms, errors}
     * @param origins  environment -> run -> its first sample's start (ms), which the timeline counts from
     * @param labels   the labels in order of first appearance
     */
    public record Summary(
            Map<String, Map<String, Map<String, SampleStatistics.Summary>>> byRun,
            Map<String, Map<Long, long[]>> timeline,
            Map<String, Map<String, Long>> origins,
            List<String> labels) {}

    public Summary summary() {
        Map<String, Map<String, Map<String, SampleStatistics.Summary>>> runs = new LinkedHashMap<>();
        Map<String, Map<String, Long>> origins = new LinkedHashMap<>();
        byRun.forEach((env, byRunOfEnv) -> byRunOfEnv.forEach((run, byLabel) -> {
            Map<String, SampleStatistics.Summary> m = new LinkedHashMap<>();
            byLabel.forEach((label, st) -> m.put(label, st.summary()));
            runs.computeIfAbsent(env, e -> new LinkedHashMap<>()).put(run, m);
            Long o = origin.get(env + "\u0000" + run);
            if (o != null) {
                origins.computeIfAbsent(env, e -> new LinkedHashMap<>()).put(run, o);
            }
        }));
        Map<String, Map<Long, long[]>> seconds = new LinkedHashMap<>();
        timeline.forEach((env, t) -> seconds.put(env, new TreeMap<>(t)));
        return new Summary(runs, seconds, origins, List.copyOf(labels));
    }

    /** The comparison {@link #summary()} described: the same figures, tables and charts as from the samples. */
    public static Comparison of(Summary s) {
        Comparison c = new Comparison();
        s.byRun()
                .forEach((env, runs) -> runs.forEach((run, byLabel) -> {
                    Map<String, SampleStatistics> m = new LinkedHashMap<>();
                    byLabel.forEach((label, st) -> m.put(label, SampleStatistics.of(st)));
                    c.byRun.computeIfAbsent(env, e -> new LinkedHashMap<>()).put(run, m);
                }));
        s.origins().forEach((env, runs) -> runs.forEach((run, o) -> c.origin.put(env + "\u0000" + run, o)));
        s.timeline().forEach((env, t) -> {
            TreeMap<Long, long[]> seconds = new TreeMap<>();
            t.forEach((second, v) -> seconds.put(second, v.clone()));
            c.timeline.put(env, seconds);
        });
        c.labels.addAll(s.labels());
        return c;
    }

    /** The baseline: the given environment, else one named "bare" (bare metal), else the first. */
    public String baseline(String requested) {
        if (requested != null && !requested.isBlank()) {
            if (!byRun.containsKey(requested)) {
                throw new IllegalArgumentException("baseline: '" + requested
                        + "' is not an environment of these results; use one of " + byRun.keySet());
            }
            return requested;
        }
        return byRun.keySet().stream()
                .filter(e -> e.equals("bare") || e.startsWith("bare"))
                .findFirst()
                .orElse(byRun.keySet().stream().findFirst().orElse(""));
    }
}

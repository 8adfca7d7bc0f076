package io.envbench.study.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.envbench.measure.metrics.MetricName;
import io.envbench.measure.metrics.MetricsFile;
import io.envbench.measure.stats.Comparison;
import io.envbench.measure.stats.Figure;
import io.envbench.measure.stats.RunStatistics;
import io.envbench.measure.stats.SampleStatistics;
import io.envbench.study.experiment.Experiment;
import net.jcip.annotations.Immutable;

/**
 * What an environment spends per request: the CPU time of everything it is made of (its container or host process
 * tree, each service of a multi-service target, and Docker's docker-proxy carrying its published port) divided by the
 * requests it served, per run, after the warm-up. Unlike saturation throughput, it shows what a container costs at a
 * fixed rate below capacity, and when the load generator shares or bounds the machine: it counts the target's work
 * per request, not how fast JMeter could ask. Immutable.
 */
@Immutable
public final class CostPerRequest {
    /** The label of its verdicts and table. */
    public static final String LABEL = "CPU per request";

    private static final Pattern SERVICE_CPU = Pattern.compile("process\\.(.+)/([^/]+)\\.cpu\\.pct");

    /**
     * One run's cost.
     *
     * @param cpuPct         the environment's CPU, one core = 100, averaged after the warm-up
     * @param proxyCpuPct    of which docker-proxy's
     * @param requestsPerSec the run's throughput of all labels after the warm-up
     * @param timeShare      per label, its share of the run's response time against its share of the requests (mean
     *                       response time of the label over that of all labels): see {@link #microseconds(String)}
     */
    public record Run(
            String environment,
            String run,
            double cpuPct,
            double proxyCpuPct,
            double requestsPerSec,
            Map<String, Double> timeShare) {
        public Run {
            timeShare = Collections.unmodifiableMap(new LinkedHashMap<>(timeShare)); // in the plan's order
        }

        /** CPU microseconds per request. */
        public double microseconds() {
            return requestsPerSec > 0 ? cpuPct / 100 / requestsPerSec * 1e6 : Double.NaN;
        }

        /**
         * CPU microseconds per request of one label, apportioned: the run's CPU is shared among labels by the time
         * the target spent answering each (count times mean response time). A label whose requests take twice as long
         * is taken to cost twice the CPU: true of CPU-bound work, not of a request that waits on a disk or another
         * service. NaN when the run has no sample of the label.
         */
        public double microseconds(String label) {
            Double share = timeShare.get(label);
            return share == null ? Double.NaN : microseconds() * share;
        }
    }

    private final List<Run> runs;

    private CostPerRequest(List<Run> runs) {
        this.runs = List.copyOf(runs);
    }

    /** The cost of every completed run that has both a metrics file and samples. */
    public static CostPerRequest read(RunDirectory dir, Experiment e, List<RunRecord> records, Comparison c)
            throws IOException {
        List<Run> out = new ArrayList<>();
        for (RunRecord r : records) {
            String env = r.run().environment();
            if (!r.ok() || r.firstSample() == null || !Files.isRegularFile(dir.metrics(r.run()))) {
                continue;
            }
            SampleStatistics s = c.get(env, r.run().id(), Comparison.TOTAL);
            if (s == null) {
                continue;
            }
            MetricsFile m = MetricsFile.read(Map.of(
                    dir.metrics(r.run()),
                    r.firstSample().toEpochMilli() + e.load().warmup().toMillis()));
            if (!m.environments().contains(env)) {
                continue;
            }
            double proxy = orZero(m.summary(env, MetricName.DOCKER_PROXY_CPU).average());
            Map<String, Double> share = new LinkedHashMap<>();
            for (String label : c.labels()) {
                SampleStatistics l = c.get(env, r.run().id(), label);
                if (l != null && l.count() > 0 && s.meanMs() > 0) {
                    share.put(label, l.meanMs() / s.meanMs());
                }
            }
            out.add(new Run(env, r.run().id(), ownCpu(m, env) + proxy, proxy, Figure.THROUGHPUT.of(s), share));
        }
        return new CostPerRequest(out);
    }

    /** The environment's own CPU: its services' process trees where it has several, else its container or tree. */
    private static double ownCpu(MetricsFile m, String env) {
        double services = 0;
        boolean any = false;
        for (String metric : m.metrics(env)) {
            Matcher x = SERVICE_CPU.matcher(metric);
            if (x.matches() && x.group(1).equals(env)) {
                services += orZero(m.summary(env, metric).average());
                any = true;
            }
        }
        return any
                ? services
                : orZero(m.summary(env, MetricName.TARGET_CPU.column()).average());
    }

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    public List<Run> runs() {
        return runs;
    }

    public boolean isEmpty() {
        return runs.isEmpty();
    }

    /** Per environment (in the order of its first run), its runs' CPU microseconds per request. */
    public Map<String, RunStatistics> microsecondsPerRequest() {
        Map<String, List<Double>> by = new LinkedHashMap<>();
        for (Run r : runs) {
            if (!Double.isNaN(r.microseconds())) {
                by.computeIfAbsent(r.environment(), k -> new ArrayList<>()).add(r.microseconds());
            }
        }
        Map<String, RunStatistics> out = new LinkedHashMap<>();
        by.forEach((env, values) -> out.put(env, RunStatistics.of(values)));
        return out;
    }

    /**
     * Per label and environment (labels in the plan's order), its runs' apportioned CPU microseconds per request
     * ({@link Run#microseconds(String)}); empty when the plan has one label, where it would repeat the total.
     */
    public Map<String, Map<String, RunStatistics>> microsecondsPerRequestByLabel() {
        Map<String, Map<String, List<Double>>> by = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>();
        runs.forEach(r -> r.timeShare().keySet().forEach(l -> {
            if (!labels.contains(l)) {
                labels.add(l);
            }
        }));
        if (labels.size() < 2) {
            return Map.of();
        }
        for (String label : labels) {
            for (Run r : runs) {
                double v = r.microseconds(label);
                if (!Double.isNaN(v)) {
                    by.computeIfAbsent(label, k -> new LinkedHashMap<>())
                            .computeIfAbsent(r.environment(), k -> new ArrayList<>())
                            .add(v);
                }
            }
        }
        Map<String, Map<String, RunStatistics>> out = new LinkedHashMap<>();
        by.forEach((label, envs) -> {
            Map<String, RunStatistics> m = new LinkedHashMap<>();
            envs.forEach((env, values) -> m.put(env, RunStatistics.of(values)));
            out.put(label, m);
        });
        return out;
    }

    /** Per environment, the median of its runs' CPU (one core = 100), and of docker-proxy's share of it. */
    public Map<String, double[]> cpuPct() {
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, List<Double>> proxy = new LinkedHashMap<>();
        for (Run r : runs) {
            cpu.computeIfAbsent(r.environment(), k -> new ArrayList<>()).add(r.cpuPct());
            proxy.computeIfAbsent(r.environment(), k -> new ArrayList<>()).add(r.proxyCpuPct());
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        cpu.forEach((env, v) -> out.put(env, new double[] {
            RunStatistics.of(v).median(), RunStatistics.of(proxy.get(env)).median()
        }));
        return out;
    }
}

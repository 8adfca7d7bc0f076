package io.envbench.study.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envbench.base.output.OutputFolder;
import io.envbench.measure.results.ResponseErrors;
import io.envbench.measure.stats.Comparison;
import net.jcip.annotations.Immutable;

/**
 * A run directory's {@code summary.json}: the figures of its completed runs without their samples (the statistics per
 * environment, run and label with their exact distributions, the timeline, the failed samples by code), written when
 * the runs end, so that opening a finished run reads one small file instead of every JTL. It names the JTLs it was
 * computed from with their sizes: a summary that no longer matches them (a run added, a file changed) is not used.
 *
 * @param version    the file's layout ({@link #VERSION}); another one is not used
 * @param warmupMs   the warm-up left out of the figures
 * @param jtlBytes   each completed run's JTL (relative to the run directory) and its size
 * @param comparison the figures ({@link Comparison#summary()})
 * @param errors     the failed samples after the warm-up, by environment, label, code and message
 */
@Immutable
@JsonIgnoreProperties(ignoreUnknown = true)
public record RunSummary(
        int version,
        long warmupMs,
        Map<String, Long> jtlBytes,
        Comparison.Summary comparison,
        List<ResponseErrors.Row> errors) {
    public static final String FILE = "summary.json";
    static final int VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JTLs of the runs the figures count (ok, with a first sample), each with its size now. */
    static Map<String, Long> jtlBytes(RunDirectory dir, List<RunRecord> runs) throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (RunRecord r : runs) {
            if (r.ok() && r.firstSample() != null) {
                Path jtl = dir.jtl(r.run());
                out.put(dir.root().relativize(jtl).toString(), Files.isRegularFile(jtl) ? Files.size(jtl) : -1);
            }
        }
        return out;
    }

    /**
     * The run directory's summary when it describes exactly these runs' JTLs as they are now (names and sizes) with this
     * warm-up; empty when there is none, it cannot be read, or it is stale: the caller then reads the JTLs.
     */
    static Optional<RunSummary> current(RunDirectory dir, long warmupMs, List<RunRecord> runs) throws IOException {
        Path file = dir.summary();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        RunSummary s;
        try {
            s = JSON.readValue(file.toFile(), RunSummary.class);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // damaged or of another layout: the JTLs say the same, only slower
        }
        boolean matches = s.version() == VERSION
                && s.warmupMs() == warmupMs
                && s.comparison() != null
                && s.errors() != null
                && jtlBytes(dir, runs).equals(s.jtlBytes());
        return matches ? Optional.of(s) : Optional.empty();
    }

    /** Writes it whole or not at all (a reader never sees half a summary). */
    void write(RunDirectory dir) throws IOException {
        Path file = dir.summary();
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            JSON.writeValue(part.toFile(), this);
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw new IOException("cannot write " + file + ": " + OutputFolder.why(e), e);
        }
        Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}

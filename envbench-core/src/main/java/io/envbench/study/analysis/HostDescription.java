package io.envbench.study.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import net.jcip.annotations.Immutable;

/**
 * The machine a run directory's runs ran on, as its {@code host.json} records it, so that a report read later (on
 * another machine) still says where its figures came from. Immutable.
 *
 * @param hostname       the host's name
 * @param cpus           logical CPUs of the machine (not of this process's affinity)
 * @param cpuModel       the CPU's model name, or empty when {@code /proc/cpuinfo} does not say
 * @param memoryBytes    the machine's memory ({@code MemTotal}), 0 when unknown
 * @param kernel         the kernel's release ({@code uname -r})
 * @param os             the distribution ({@code PRETTY_NAME} of {@code /etc/os-release}), or the JVM's OS name
 * @param cgroupVersion  {@code v2} (unified hierarchy), {@code v1}, or empty when no cgroup file system is mounted
 * @param dockerVersion  the Docker engine's version the runs used, or empty when they used none (or it did not answer)
 * @param javaVersion    the runner's Java
 * @param recordedAt     when the description was taken (ISO-8601, UTC)
 */
@Immutable
@JsonIgnoreProperties(ignoreUnknown = true) // a newer runner's extra facts do not stop an older report
public record HostDescription(
        String hostname,
        int cpus,
        String cpuModel,
        long memoryBytes,
        String kernel,
        String os,
        String cgroupVersion,
        String dockerVersion,
        String javaVersion,
        String recordedAt) {
    /** The file in a run directory. */
    public static final String FILE = "host.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * This machine, read from its {@code /proc} and cgroup mount (roots given, so a test can use a fixture tree).
     *
     * @param dockerVersion the engine's version, when the caller has a connection that answered
     */
    public static HostDescription probe(
            Path procRoot, Path cgroupRoot, Path osRelease, Optional<String> dockerVersion) {
        List<String> cpuinfo = lines(procRoot.resolve("cpuinfo"));
        long processors =
                cpuinfo.stream().filter(l -> l.startsWith("processor")).count();
        String model = cpuinfo.stream()
                .filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst()
                .orElse("");
        long memoryKb = lines(procRoot.resolve("meminfo")).stream()
                .filter(l -> l.startsWith("MemTotal:"))
                .map(l -> l.replaceAll("[^0-9]", ""))
                .filter(s -> !s.isEmpty())
                .mapToLong(Long::parseLong)
                .findFirst()
                .orElse(0);
        String kernel = lines(procRoot.resolve("sys/kernel/osrelease")).stream()
                .findFirst()
                .orElse(System.getProperty("os.version"));
        String os = lines(osRelease).stream()
                .filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", ""))
                .findFirst()
                .orElse(System.getProperty("os.name"));
        String cgroup = Files.exists(cgroupRoot.resolve("cgroup.controllers"))
                ? "v2"
                : Files.isDirectory(cgroupRoot) && !list(cgroupRoot).isEmpty() ? "v1" : "";
        return new HostDescription(
                hostname(procRoot),
                processors > 0 ? (int) processors : Runtime.getRuntime().availableProcessors(),
                model,
                memoryKb * 1024,
                kernel,
                os,
                cgroup,
                dockerVersion.orElse(""),
                System.getProperty("java.version"),
                Instant.now().toString());
    }

    /** This Linux machine: {@code /proc}, {@code /sys/fs/cgroup}, {@code /etc/os-release}. */
    public static HostDescription probe(Optional<String> dockerVersion) {
        return probe(Path.of("/proc"), Path.of("/sys/fs/cgroup"), Path.of("/etc/os-release"), dockerVersion);
    }

    /** Writes it as JSON, whole or not at all (beside, then moved). */
    public void write(Path file) throws IOException {
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            JSON.writeValue(part.toFile(), this);
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /**
     * The description in {@code file}; empty when there is none (a run directory from before runners recorded it).
     *
     * @throws IOException when the file is there but is not a host description
     */
    public static Optional<HostDescription> read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(file.toFile(), HostDescription.class));
    }

    /** One line for a report: {@code build-7: 2 CPUs (Intel Xeon), 7.8 GiB, Ubuntu 22.04, kernel 6.5.0, cgroup v2, Docker 24.0.7}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add(cpus + " CPUs" + (cpuModel.isEmpty() ? "" : " (" + cpuModel + ")"));
        parts.add(
                memoryBytes > 0 ? String.format(Locale.ROOT, "%.1f GiB memory", memoryBytes / GIB) : "memory unknown");
        parts.add(os);
        parts.add("kernel " + kernel);
        parts.add(cgroupVersion.isEmpty() ? "no cgroup file system" : "cgroup " + cgroupVersion);
        parts.add(
                dockerVersion.isEmpty()
                        ? "Docker version not recorded (not used, or not reached)"
                        : "Docker " + dockerVersion);
        return hostname + ": " + String.join(", ", parts);
    }

    private static final double GIB = 1024.0 * 1024 * 1024;

    private static String hostname(Path procRoot) {
        return lines(procRoot.resolve("sys/kernel/hostname")).stream()
                .findFirst()
                .orElseGet(() -> Optional.ofNullable(System.getenv("HOSTNAME")).orElse("unknown"));
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of(); // a fact the machine does not show is left out, not a failed run
        }
    }

    private static List<Path> list(Path dir) {
        try (var s = Files.list(dir)) {
            return s.toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}

package io.envbench.base.container;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import io.envbench.base.settings.InvalidSettingException;
import io.envbench.base.units.CpuSet;
import io.envbench.base.units.MemorySize;
import net.jcip.annotations.Immutable;

/**
 * The Docker options EnvBench varies between environments. Immutable; build with {@link #builder()}.
 * Empty optionals mean "Docker's default".
 */
@Immutable
public final class ContainerOptions {
    private final NetworkMode networkMode;
    private final VolumeMount volume;
    private final Optional<CpuSet> cpuset;
    private final OptionalDouble cpus;
    private final OptionalInt cpuShares;
    private final OptionalLong memoryBytes;
    private final Seccomp seccomp;
    private final Map<String, String> env;
    private final List<String> command;

    private ContainerOptions(Builder b) {
        this.networkMode = b.networkMode;
        this.volume = b.volume;
        this.cpuset = b.cpuset;
        this.cpus = b.cpus;
        this.cpuShares = b.cpuShares;
        this.memoryBytes = b.memoryBytes;
        this.seccomp = b.seccomp;
        this.env = Map.copyOf(b.env);
        this.command = List.copyOf(b.command);
    }

    public static Builder builder() {
        return new Builder();
    }

    public NetworkMode networkMode() {
        return networkMode;
    }

    public VolumeMount volume() {
        return volume;
    }

    public Optional<CpuSet> cpuset() {
        return cpuset;
    }
    /** CPU quota in cores, as {@code docker run --cpus}; quota = cpus x period (100 ms). */
    public OptionalDouble cpus() {
        return cpus;
    }

    public OptionalInt cpuShares() {
        return cpuShares;
    }

    public OptionalLong memoryBytes() {
        return memoryBytes;
    }

    public Seccomp seccomp() {
        return seccomp;
    }

    public Map<String, String> env() {
        return env;
    }
    /** Replaces the image's command when not empty. */
    public List<String> command() {
        return command;
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.networkMode = networkMode;
        b.volume = volume;
        b.cpuset = cpuset;
        b.cpus = cpus;
        b.cpuShares = cpuShares;
        b.memoryBytes = memoryBytes;
        b.seccomp = seccomp;
        b.env = new LinkedHashMap<>(env);
        b.command = new ArrayList<>(command);
        return b;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("network=").append(networkMode.dockerName());
        if (volume.kind() != VolumeMount.Kind.NONE) {
            s.append(" volume=")
                    .append(volume.kind().name().toLowerCase())
                    .append(':')
                    .append(volume.containerPath());
        }
        cpuset.ifPresent(c -> s.append(" cpuset=").append(c));
        cpus.ifPresent(c -> s.append(" cpus=").append(c));
        cpuShares.ifPresent(c -> s.append(" cpuShares=").append(c));
        memoryBytes.ifPresent(
                m -> s.append(" memory=").append(m / (1024 * 1024)).append("MiB"));
        if (seccomp != Seccomp.DEFAULT) {
            s.append(" seccomp=").append(seccomp.fieldValue());
        }
        return s.toString();
    }

    /** The smallest CPU quota Docker accepts, in cores. */
    public static final double MIN_CPUS = 0.01;

    public static final class Builder {
        private NetworkMode networkMode = NetworkMode.BRIDGE;
        private VolumeMount volume = VolumeMount.NONE;
        private Optional<CpuSet> cpuset = Optional.empty();
        private OptionalDouble cpus = OptionalDouble.empty();
        private OptionalInt cpuShares = OptionalInt.empty();
        private OptionalLong memoryBytes = OptionalLong.empty();
        private Seccomp seccomp = Seccomp.DEFAULT;
        private Map<String, String> env = new LinkedHashMap<>();
        private List<String> command = new ArrayList<>();

        public Builder networkMode(NetworkMode m) {
            this.networkMode = Objects.requireNonNull(m);
            return this;
        }

        public Builder volume(VolumeMount v) {
            this.volume = Objects.requireNonNull(v);
            return this;
        }

        public Builder cpuset(CpuSet c) {
            this.cpuset = Optional.ofNullable(c);
            return this;
        }

        public Builder cpus(double cores) {
            // Docker refuses a quota under a hundredth of a core with a bare HTTP 400: said here, with the range
            if (!(cores >= MIN_CPUS) || cores > CpuSet.online().size()) {
                throw new InvalidSettingException(
                        "cpus",
                        cores + " is out of range; use a number of cores of at least " + MIN_CPUS
                                + " (the smallest quota Docker sets) and at most "
                                + CpuSet.online().size()
                                + " (this host's CPUs), e.g. 0.5");
            }
            this.cpus = OptionalDouble.of(cores);
            return this;
        }

        public Builder cpuShares(int shares) {
            if (shares < 2 || shares > 262144) {
                throw new InvalidSettingException(
                        "cpuShares", shares + " is out of range; use 2 to 262144 (Docker's default weight is 1024)");
            }
            this.cpuShares = OptionalInt.of(shares);
            return this;
        }

        public Builder memoryBytes(long bytes) {
            if (bytes < MemorySize.DOCKER_MINIMUM_BYTES) {
                throw new InvalidSettingException(
                        "memory", bytes + " bytes is below Docker's minimum of 6m; use at least 6m");
            }
            this.memoryBytes = OptionalLong.of(bytes);
            return this;
        }

        public Builder seccomp(Seccomp s) {
            this.seccomp = Objects.requireNonNull(s);
            return this;
        }

        public Builder env(String name, String value) {
            this.env.put(name, value);
            return this;
        }

        public Builder command(List<String> cmd) {
            this.command = new ArrayList<>(cmd);
            return this;
        }

        public ContainerOptions build() {
            return new ContainerOptions(this);
        }
    }
}

package io.envbench.launch.dockerdaemon;

import java.util.List;
import java.util.Optional;

import io.envbench.base.settings.InvalidSettingException;

/**
 * The daemon settings one environment asks for ({@code dockerDaemon:} in an experiment): only what it names; the rest
 * stays as the daemon had it before the experiment ({@link #over}). Immutable.
 *
 * @param userlandProxy {@code userlandProxy:}, when given
 * @param storageDriver {@code storageDriver:}, when given: one of {@link #STORAGE_DRIVERS}
 */
public record DaemonRequest(Optional<Boolean> userlandProxy, Optional<String> storageDriver) {
    /**
     * The storage drivers dockerd 20.10 and later know; whether this host's kernel and file system carry one shows only
     * when dockerd starts with it.
     */
    public static final List<String> STORAGE_DRIVERS =
            List.of("overlay2", "fuse-overlayfs", "btrfs", "zfs", "vfs", "devicemapper", "aufs");

    public DaemonRequest {
        if (userlandProxy.isEmpty() && storageDriver.isEmpty()) {
            throw new InvalidSettingException(
                    "dockerDaemon", "names no setting; give userlandProxy: false, storageDriver: vfs, or both");
        }
        storageDriver.ifPresent(d -> {
            if (!STORAGE_DRIVERS.contains(d)) {
                throw new InvalidSettingException(
                        "dockerDaemon.storageDriver",
                        "'" + d + "' is no storage driver of dockerd; use one of "
                                + String.join(", ", STORAGE_DRIVERS));
            }
        });
    }

    /** Asks for the proxy setting alone. */
    public static DaemonRequest userlandProxy(boolean on) {
        return new DaemonRequest(Optional.of(on), Optional.empty());
    }

    /** Asks for a storage driver alone. */
    public static DaemonRequest storageDriver(String driver) {
        return new DaemonRequest(Optional.empty(), Optional.of(driver));
    }

    /** The settings a run of this environment has on a daemon that had {@code before}. */
    public DaemonSettings over(DaemonSettings before) {
        return new DaemonSettings(
                userlandProxy.orElse(before.userlandProxy()), storageDriver.orElse(before.storageDriver()));
    }

    /** For a report, e.g. {@code userland-proxy=false}, {@code storage-driver=vfs}, or both. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        userlandProxy.ifPresent(
                p -> b.append(DaemonConfigFile.USERLAND_PROXY).append('=').append(p));
        storageDriver.ifPresent(d -> b.append(b.isEmpty() ? "" : " ")
                .append(DaemonConfigFile.STORAGE_DRIVER)
                .append('=')
                .append(d));
        return b.toString();
    }
}

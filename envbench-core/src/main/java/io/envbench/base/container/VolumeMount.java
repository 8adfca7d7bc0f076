package io.envbench.base.container;

import java.util.Locale;
import java.util.Objects;

import io.envbench.base.settings.FileSafeName;
import io.envbench.base.settings.InvalidSettingException;

/**
 * Where a container keeps the files of one path: in its copy-on-write layer ({@link Kind#NONE}),
 * a host folder ({@link Kind#BIND}), a Docker named volume ({@link Kind#NAMED}) or memory ({@link Kind#TMPFS}).
 *
 * @param kind          what backs the path
 * @param source        host folder (BIND) or volume name (NAMED; made and removed by EnvBench); empty otherwise
 * @param containerPath absolute path inside the container
 */
public record VolumeMount(Kind kind, String source, String containerPath) {
    public enum Kind {
        NONE,
        BIND,
        NAMED,
        TMPFS
    }

    public static final VolumeMount NONE = new VolumeMount(Kind.NONE, "", "");

    public VolumeMount {
        Objects.requireNonNull(kind, "kind");
        source = source == null ? "" : source.trim();
        containerPath = containerPath == null ? "" : containerPath.trim();
        if (kind != Kind.NONE && !containerPath.startsWith("/")) {
            throw new InvalidSettingException(
                    "volumePath",
                    "'" + containerPath + "' must be an absolute path inside the container, e.g. /var/lib/data");
        }
        if ((kind == Kind.BIND || kind == Kind.NAMED) && source.isEmpty()) {
            throw new InvalidSettingException(
                    "volumeSource",
                    kind == Kind.BIND
                            ? "is empty; give the host folder to mount"
                            : "is empty; give a volume name, e.g. envbench-data");
        }
        if (kind == Kind.BIND && !source.startsWith("/")) {
            throw new InvalidSettingException(
                    "volumeSource", "'" + source + "' must be an absolute host path for a bind mount");
        }
        if (kind == Kind.NAMED) {
            // Docker reads a named source that looks like a path ('/etc') as a bind mount of that host folder
            FileSafeName.check("volumeSource", source, "envbench-data");
        }
    }

    public static Kind parseKind(String field, String text) {
        String t = text == null || text.isBlank() ? "none" : text.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "none" -> Kind.NONE;
            case "bind" -> Kind.BIND;
            case "named", "volume" -> Kind.NAMED;
            case "tmpfs" -> Kind.TMPFS;
            default ->
                throw new InvalidSettingException(
                        field, "'" + text + "' is not a volume type; use none, bind, named or tmpfs");
        };
    }
}

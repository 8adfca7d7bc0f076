package io.envbench.base.settings;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A name a user types that EnvBench also uses as a file or folder name (experiments, environments, target recipes,
 * volumes): letters, digits, '.', '_' or '-', starting with a letter or digit, at most {@value #MAX_LENGTH}
 * characters. So it can never climb out of its folder ({@code ..}, {@code a/b}, {@code /abs}), hide ({@code .x}),
 * or make a file name longer than the file system allows once EnvBench adds its suffixes.
 */
public final class FileSafeName {
    public static final int MAX_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private FileSafeName() {}

    /**
     * @param field   the field as the user sees it, for the message
     * @param example a good name for this field, e.g. {@code docker-bridge}
     * @return the name, unchanged
     * @throws InvalidSettingException naming the field and what to type instead
     */
    public static String check(String field, String name, String example) {
        if (name == null || name.isEmpty()) {
            throw new InvalidSettingException(
                    field, "is empty; give a name of letters, digits, '.', '_' or '-', e.g. " + example);
        }
        if (name.length() > MAX_LENGTH) {
            throw new InvalidSettingException(
                    field,
                    "'" + name.substring(0, 20) + "...' is " + name.length() + " characters long; " + "give at most "
                            + MAX_LENGTH + ", e.g. " + example);
        }
        if (!NAME.matcher(name).matches()) {
            String why = name.contains("/") || name.contains("\\") || name.startsWith(".")
                    ? " (it is used as a file name, and must not name another folder or a hidden file)"
                    : "";
            throw new InvalidSettingException(
                    field,
                    "'" + name + "' is not a valid name" + why + "; use letters, digits, '.', '_' or '-', "
                            + "starting with a letter or digit, e.g. " + example);
        }
        return name;
    }

    /** Two names with the same key would give the same file name on a case-insensitive file system (macOS, Windows). */
    public static String collisionKey(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}

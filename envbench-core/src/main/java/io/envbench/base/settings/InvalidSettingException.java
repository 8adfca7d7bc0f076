package io.envbench.base.settings;

/**
 * A setting a user typed is wrong. The message names the field and says how to fix it,
 * e.g. {@code memory: '12XB' is not a size; use a number with k, m or g, e.g. 512m}.
 */
public final class InvalidSettingException extends IllegalArgumentException {
    private final String field;

    public InvalidSettingException(String field, String problemAndFix) {
        super(field + ": " + problemAndFix);
        this.field = field;
    }

    /** The name of the field as the user sees it (GUI label / property name). */
    public String field() {
        return field;
    }
}

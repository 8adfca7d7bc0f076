package io.envbench.study.bonnie;

/**
 * The figures of a bonnie++ run that EnvBench compares, with their column in bonnie++'s CSV (format 1.98, as
 * {@code bon_csv2html} reads it). Per-character figures ({@code -f} skips them) and latencies are left out.
 */
public enum BonnieFigure {
    BLOCK_WRITE("block write", "K/s", 11),
    BLOCK_WRITE_CPU("block write CPU", "%", 12),
    REWRITE("rewrite", "K/s", 13),
    REWRITE_CPU("rewrite CPU", "%", 14),
    BLOCK_READ("block read", "K/s", 17),
    BLOCK_READ_CPU("block read CPU", "%", 18),
    RANDOM_SEEKS("random seeks", "/s", 19),
    RANDOM_SEEKS_CPU("random seeks CPU", "%", 20),
    SEQUENTIAL_CREATE("sequential create", "files/s", 26),
    SEQUENTIAL_CREATE_CPU("sequential create CPU", "%", 27),
    SEQUENTIAL_STAT("sequential stat", "files/s", 28),
    SEQUENTIAL_STAT_CPU("sequential stat CPU", "%", 29),
    SEQUENTIAL_DELETE("sequential delete", "files/s", 30),
    SEQUENTIAL_DELETE_CPU("sequential delete CPU", "%", 31),
    RANDOM_CREATE("random create", "files/s", 32),
    RANDOM_CREATE_CPU("random create CPU", "%", 33),
    RANDOM_STAT("random stat", "files/s", 34),
    RANDOM_STAT_CPU("random stat CPU", "%", 35),
    RANDOM_DELETE("random delete", "files/s", 36),
    RANDOM_DELETE_CPU("random delete CPU", "%", 37);

    private final String title;
    private final String unit;
    private final int column;

    BonnieFigure(String title, String unit, int column) {
        this.title = title;
        this.unit = unit;
        this.column = column;
    }

    /** As the report names it, e.g. {@code block write}. */
    public String title() {
        return title;
    }

    /** K/s (KiB per second, bonnie++'s unit), /s, files/s, or % (CPU, 100 = one core). */
    public String unit() {
        return unit;
    }

    /** 0-based column in the CSV line. */
    int column() {
        return column;
    }

    /** A CPU % figure (the share of a core bonnie++ used for the test named before it). */
    public boolean cpu() {
        return unit.equals("%");
    }

    /** Higher is better for rates; for CPU % lower is better (the same work for less CPU). */
    public boolean higherIsBetter() {
        return !cpu();
    }
}

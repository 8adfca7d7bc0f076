package io.envbench.host.hostsettings;

import java.io.IOException;
import java.nio.file.Path;

/** A journal that cannot be read whole: nothing of it is put back, and the message names the file and the line. */
public final class DamagedJournalException extends IOException {
    private final Path journal;

    public DamagedJournalException(Path journal, int line, String problem) {
        super("host settings journal " + journal + (line > 0 ? " line " + line : "") + ": " + problem
                + "; nothing of it was put back: check the settings it names by hand, then delete the file");
        this.journal = journal;
    }

    public Path journal() {
        return journal;
    }
}

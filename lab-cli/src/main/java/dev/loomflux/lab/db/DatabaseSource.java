package dev.loomflux.lab.db;

import java.nio.file.Path;
import java.util.function.Consumer;

/** Where a run's database comes from: the embedded server (default) or one the user gave. */
public interface DatabaseSource {
    /** @param onRestart told in one line when the embedded server died and was started again */
    Database open(Path runDir, Consumer<String> onRestart);
}

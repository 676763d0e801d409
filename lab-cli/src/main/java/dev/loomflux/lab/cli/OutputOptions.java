package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.cpuprofile.CategoryRules;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** What a run writes and where: results/RUN-ID/, the id ending in the experiment's name; the CPU profile's categories. */
public final class OutputOptions {
    @Option(names = "--name", description = "Experiment name (part of the run id). Default: the file name or the scenarios.")
    String name;

    @Option(names = "--cpu-profile-rules", paramLabel = "FILE",
            description = "Your own CATEGORY<TAB>PREFIX lines for the CPU profile's categories (e.g. app<TAB>com.example.), matched before "
                    + "the lab's own table (docs/telemetry.md).")
    Path profileRules;

    /** The lab's categories, after the user's rules when given. @throws UsageException naming the file, and the line that cannot be a rule */
    CategoryRules categories() {
        if (profileRules == null) {
            return CategoryRules.lab();
        }
        if (!Files.isReadable(profileRules) || Files.isDirectory(profileRules)) {
            throw new UsageException("--cpu-profile-rules " + profileRules + ": no such readable file");
        }
        return CategoryRules.withUserFile(profileRules);
    }
}

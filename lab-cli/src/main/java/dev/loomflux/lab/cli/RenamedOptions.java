package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** Flags of older labs, hidden from the help: given one, the lab names the flag that replaced it instead of guessing what it meant. */
public final class RenamedOptions {
    private static final Map<String, String> NOW = Map.of("--connections", "--users", "--max-users", "--max-in-flight", "--profile-rules", "--cpu-profile-rules");

    @Option(names = "--connections", hidden = true)
    String connections;

    @Option(names = "--max-users", hidden = true)
    String maxUsers;

    @Option(names = "--profile-rules", hidden = true)
    String profileRules;

    /** @throws UsageException naming the new flag when an old one was given */
    void refuse(ParseResult given) {
        NOW.forEach((old, now) -> {
            if (given.hasMatchedOption(old)) {
                throw new UsageException(old + " is now " + now);
            }
        });
    }
}

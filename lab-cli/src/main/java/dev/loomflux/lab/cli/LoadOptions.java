package dev.loomflux.lab.cli;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.experiment.LoadProfile;
import dev.loomflux.lab.experiment.LoadProfileReader;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/** The load profile as flags, read by the experiment files' own reader, and how long each target warms up and rests. */
public final class LoadOptions {
    @Option(names = "--profile", paramLabel = "KIND", defaultValue = "fixed",
            description = "Load profile: stages, fixed, loops, burst, rate. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--users", paramLabel = "N", description = "Concurrent users of the closed models (fixed, loops, burst). Default: 50.")
    Integer users;

    @Option(names = "--duration", paramLabel = "TIME", description = "Measured time (fixed, rate) of the sequential design. Default: 15s.")
    String duration;

    @Option(names = "--requests", paramLabel = "L", description = "Requests per user (loops, burst). Default: 100.")
    Integer requests;

    @Option(names = "--rps", description = "Arrival rate (rate).")
    Integer rps;

    @Option(names = "--" + LoadProfileReader.MAX_IN_FLIGHT, paramLabel = "N", description = "Most requests in flight (rate). Default: max(100, rps).")
    Integer maxInFlight;

    @Option(names = "--stages", paramLabel = "TIME:USERS,...", description = "Ramps (stages), e.g. 15s:50,30s:100,15s:150,30s:0.")
    String stages;

    @Option(names = "--think", paramLabel = "TIME[..TIME]",
            description = "Each user's pause after a response before its next request (stages, fixed, loops, burst): 100ms fixed, 1s..3s uniform. Default: none.")
    String think;

    @Option(names = "--warmup", paramLabel = "TIME", description = "Most warmup per target x scenario; warmup ends as soon as the target is steady. Default: 75s paired, 180s sequential.")
    String warmup;

    @Option(names = "--cooldown", paramLabel = "TIME", description = "Pause between targets. Default: 10s.")
    String cooldown;

    @Option(names = "--scale", paramLabel = "FACTOR",
            description = "Multiply durations and requests per user (not users), e.g. 0.1 for a quick pass.")
    Double scale;

    @Option(names = "--shape-scale", paramLabel = "FACTOR",
            description = "Multiply the profile's own length only (its durations; requests per user of loops and bursts), e.g. 0.1 to fit a"
                    + " 90 s shape into a round of the paired design; users, pauses and the warmup stay.")
    Double shapeScale;

    @Option(names = "--fresh-jvms", description = "Paired, a shape in rounds: a fresh JVM of every target before each of its blocks after its first,"
            + " warmed as the first was (a JVM the shape kills gets one anyway).")
    boolean freshJvms;

    /** The flags of the profile, which an experiment file gives itself. */
    static final List<String> PROFILE_FLAGS = List.of("--profile", "--users", "--duration", "--requests", "--rps", "--" + LoadProfileReader.MAX_IN_FLIGHT,
            "--stages", "--think");
    /** The flags that are one profile's field each. */
    private static final List<String> FIELD_FLAGS = List.of("--users", "--duration", "--requests", "--rps", "--" + LoadProfileReader.MAX_IN_FLIGHT, "--stages");

    /** The profile the flags describe; {@code given} tells which flags were on the command line. */
    LoadProfile profile(ParseResult given) {
        List<String> fields = LoadProfileReader.FIELDS.get(profile);
        if (fields != null) {
            only(fields, given);
        }
        return LoadProfileReader.read(profile, new LoadProfileReader.Fields() {
            @Override
            public String text(String field) {
                Object v = switch (field) {
                    case "users" -> users;
                    case "duration" -> duration;
                    case "requests" -> requests;
                    case "rps" -> rps;
                    case LoadProfileReader.MAX_IN_FLIGHT -> maxInFlight;
                    case LoadProfileReader.THINK -> think;
                    default -> stages;
                };
                return v == null ? null : v.toString();
            }

            @Override
            public List<LoadProfileReader.Fields> stages() {
                return stagesFields();
            }

            @Override
            public UsageException error(String field, String message) {
                if (field.isEmpty()) {
                    return new UsageException("--profile " + profile + ": " + message);
                }
                String flag = flag(field);
                String value = field.equals("stages") ? stages : text(field);
                return new UsageException(value == null ? flag + ": " + message : flag + " " + value + ": " + message);
            }
        });
    }

    private static String flag(String field) {
        return "--" + field;
    }

    /** {@code 15s:50,30s:100}: each part a stage whose errors name the whole flag. */
    private List<LoadProfileReader.Fields> stagesFields() {
        if (stages == null) {
            throw new UsageException("--profile stages needs --stages, e.g. 15s:50,30s:100,15s:150,30s:0");
        }
        List<LoadProfileReader.Fields> out = new ArrayList<>();
        for (String part : stages.split(",")) {
            String[] tu = part.trim().split(":");
            if (tu.length != 2) {
                throw new UsageException("--stages " + stages + ": expected TIME:USERS,... such as 15s:50,30s:100");
            }
            out.add(new LoadProfileReader.Fields() {
                @Override
                public String text(String field) {
                    return field.equals("duration") ? tu[0].trim() : tu[1].trim();
                }

                @Override
                public List<LoadProfileReader.Fields> stages() {
                    return List.of();
                }

                @Override
                public UsageException error(String field, String message) {
                    return new UsageException("--stages " + stages + ": " + field + " '" + text(field) + "': " + message);
                }
            });
        }
        return out;
    }

    /** Flags that belong to another profile are an error, not silently ignored. */
    private void only(List<String> fields, ParseResult given) {
        List<String> allowed = fields.stream().map(LoadOptions::flag).toList();
        for (String flag : FIELD_FLAGS) {
            if (!allowed.contains(flag) && given.hasMatchedOption(flag)) {
                throw new UsageException(flag + " does not apply to --profile " + profile + " (it takes " + String.join(", ", allowed) + ")");
            }
        }
    }
}

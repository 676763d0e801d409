package dev.loomflux.lab.cpuprofile;

import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Puts a stack in a {@link Category} by the table in {@code profile-categories.tsv}, one
 * {@code CATEGORY<TAB>PREFIX} rule a line, and optionally a user's file of the same format.
 *
 * <p>A stack is walked from its leaf toward its root and the first frame that starts with some
 * rule's prefix (plain text: {@code LockSupport.park} covers {@code parkNanos}) decides, so a sample
 * goes to the leaf-most library it was spent in: Jackson's work called from a controller called
 * from Tomcat is {@code json}. Frames no rule matches decide nothing, which is
 * how the JDK's generic code at the leaf ({@code java.lang.String} under Jackson) leaves the
 * decision to its caller; a stack no rule matches is {@code other}.
 *
 * <p>When two rules match one frame the first in file order wins, rather than the longest prefix:
 * a user's rules come before the lab's, so a user can claim any package, and the table reads top
 * down. The price is that a specific prefix must come before a general one; a rule that an earlier
 * rule of its own file covers could never match, and is refused.
 */
public final class CategoryRules {
    private static final String TABLE = "profile-categories.tsv";
    /** A run's copy of the user's rules, beside results.json: its report colours flame graphs by them too. */
    public static final String RUN_COPY = "profile-rules.tsv";

    /** @param line where the rule is in its file, for a refusal */
    private record PrefixRule(Category category, String prefix, int line) {
    }

    private final List<PrefixRule> rules;
    /** The user's file as read, null for the lab's table alone. */
    private final String userText;

    private CategoryRules(List<PrefixRule> rules, String userText) {
        this.rules = List.copyOf(rules);
        this.userText = userText;
    }

    /** The lab's table alone. */
    public static CategoryRules lab() {
        return new CategoryRules(parse(labTable(), TABLE), null);
    }

    /** The rules a run used: its copy of the user's rules ({@link #keepIn}) before the lab's, or the lab's alone. */
    public static CategoryRules ofRun(Path runDir) {
        Path copy = runDir.resolve(RUN_COPY);
        return Files.isRegularFile(copy) ? withUserFile(copy) : lab();
    }

    /** Writes the user's rules into a run's directory, so that its report can be drawn again by them; nothing for the lab's alone. */
    public void keepIn(Path runDir) throws IOException {
        if (userText != null) {
            Files.writeString(runDir.resolve(RUN_COPY), userText, StandardCharsets.UTF_8);
        }
    }

    /** A user's rules, then the lab's. */
    public static CategoryRules withUserFile(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
        return new CategoryRules(Stream.concat(parse(text, file.toString()).stream(), parse(labTable(), TABLE).stream()).toList(), text);
    }

    /** @param stack a collapsed stack: frames root first, joined by {@code ;} */
    public Category classify(String stack) {
        String[] frames = stack.split(CollapsedStacks.FRAME_SEPARATOR);
        for (int i = frames.length - 1; i >= 0; i--) {
            for (PrefixRule r : rules) {
                if (frames[i].startsWith(r.prefix())) {
                    return r.category();
                }
            }
        }
        return Category.OTHER;
    }

    private static List<PrefixRule> parse(String text, String source) {
        List<PrefixRule> rules = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\r?\n", -1)) {
            n++;
            if (line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 2 || f[1].isEmpty() || f[1].chars().anyMatch(Character::isWhitespace)) {
                throw refusal(source, n, "expected CATEGORY<TAB>PREFIX, got '" + line.replace("\t", "<TAB>") + "'");
            }
            Category category = Category.ofLabel(f[0]).orElse(null);
            if (category == null) {
                throw refusal(source, n, "unknown category '" + f[0] + "' (one of "
                        + Arrays.stream(Category.values()).map(Category::label).collect(Collectors.joining(", ")) + ")");
            }
            for (PrefixRule earlier : rules) {
                if (f[1].startsWith(earlier.prefix())) {
                    throw refusal(source, n, "prefix " + f[1] + " can never match: line " + earlier.line() + "'s prefix " + earlier.prefix()
                            + " comes first and covers it");
                }
            }
            rules.add(new PrefixRule(category, f[1], n));
        }
        return rules;
    }

    private static UsageException refusal(String source, int line, String why) {
        return new UsageException(source + ": line " + line + ": " + why);
    }

    private static String labTable() {
        try (InputStream in = CategoryRules.class.getResourceAsStream("/" + TABLE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource /" + TABLE + " (the lab jar is incomplete)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

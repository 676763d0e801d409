package dev.loomflux.lab.compare;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loomflux.lab.main.Lab;
import dev.loomflux.lab.result.Results;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Runs {@code ./lab compare} in process and edits copies of fixtures, for the Compare*Test classes. */
final class CompareCli {
    static final Path FIXTURES = Path.of("src/test/resources/fixtures");
    static final Path SINGLE_A = FIXTURES.resolve("compare-single/a");
    static final Path SINGLE_B = FIXTURES.resolve("compare-single/b");
    static final Path REPEATS_A = FIXTURES.resolve("compare-repeats/a");
    static final Path REPEATS_B = FIXTURES.resolve("compare-repeats/b");

    record Outcome(int code, String out) {
    }

    private CompareCli() {
    }

    static Outcome compare(Path a, Path b, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[3 + more.length];
        args[0] = "compare";
        args[1] = a.toString();
        args[2] = b.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        int code = Lab.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Outcome(code, out + err.toString());
    }

    /** A copy of {@code run}'s results.json at {@code to}, after {@code edit}. */
    static Path edited(Path run, Path to, Consumer<ObjectNode> edit) throws IOException {
        ObjectNode root = (ObjectNode) Results.tree(run.resolve("results.json"));
        edit.accept(root);
        Results.write(to, root);
        return to;
    }
}

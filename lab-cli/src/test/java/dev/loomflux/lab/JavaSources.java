package dev.loomflux.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The lab's main sources read as text, for {@link StructureTest}: their packages and what each imports, their lengths, the
 * parameters of their methods, constructors and records, their static fields, their string literals. Line-based, not a
 * parser: right for this code's style (one declaration's head on its own lines, no generic calls with explicit type
 * arguments), which the fixtures in StructureTest pin down.
 */
final class JavaSources {
    static final String ROOT = "dev.loomflux.lab";

    /** One source file: its path under the root package's folder (e.g. "procedure/InRounds.java"), package, text. */
    record Source(String path, String pkg, String text) {
        /** The text without comments and with every string and character literal emptied, line breaks kept. */
        String code() {
            return strip(text);
        }
    }

    /** A method, constructor or record header and its number of parameters (a record's components). */
    record Declaration(String path, int line, String name, int parameters) {
    }

    /** A static field that is not final. */
    record StaticField(String path, int line, String declaration) {
    }

    /** A string or text-block literal: its line, and its text as written between its quotes. */
    record Literal(String path, int line, String text) {
    }

    private JavaSources() {
    }

    /** Every .java file under {@code dir}, the folder of the root package. */
    static List<Source> read(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Source> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String path = dir.relativize(f).toString().replace('\\', '/');
                out.add(of(path, Files.readString(f)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A source at {@code path} (e.g. "cli/RunCommand.java"), its package from its package line. */
    static Source of(String path, String text) {
        Matcher m = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;").matcher(strip(text));
        String pkg = m.find() ? m.group(1) : "";
        return new Source(path, pkg.equals(ROOT) ? "" : pkg.startsWith(ROOT + ".") ? pkg.substring(ROOT.length() + 1) : pkg, text);
    }

    /** Lines as wc -l counts them. */
    static int lines(Source s) {
        return (int) s.text().chars().filter(c -> c == '\n').count();
    }

    private static final Pattern REFERENCE = Pattern.compile("\\b" + Pattern.quote(ROOT) + "((?:\\.[a-z_]\\w*)*)\\.(?:[A-Z]|\\*)");

    /**
     * Package to the lab's packages it uses (imports, static imports and names written out in full), relative to the root
     * package ("" is the root); a package's use of itself is left out.
     */
    static Map<String, Set<String>> imports(List<Source> sources) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (Source s : sources) {
            Set<String> uses = out.computeIfAbsent(s.pkg(), k -> new TreeSet<>());
            Matcher m = REFERENCE.matcher(s.code());
            while (m.find()) {
                String used = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
                if (!used.equals(s.pkg())) {
                    uses.add(used);
                }
            }
        }
        return out;
    }

    /** The graph's cycles: each strongly connected set of more than one package, sorted (Tarjan's algorithm). */
    static List<List<String>> cycles(Map<String, Set<String>> graph) {
        return new Tarjan(graph).run();
    }

    /** A shortest way from the first of {@code cycle}'s packages around to itself, within it: one import cycle to break. */
    static List<String> loop(Map<String, Set<String>> graph, List<String> cycle) {
        String from = cycle.get(0);
        Map<String, String> cameFrom = new HashMap<>();
        Deque<String> queue = new ArrayDeque<>(List.of(from));
        while (!queue.isEmpty()) {
            String p = queue.removeFirst();
            for (String q : graph.getOrDefault(p, Set.of())) {
                if (q.equals(from)) {
                    List<String> way = new ArrayList<>(List.of(from));
                    for (String at = p; !at.equals(from); at = cameFrom.get(at)) {
                        way.add(1, at);
                    }
                    way.add(from);
                    return way;
                }
                if (cycle.contains(q) && !cameFrom.containsKey(q)) {
                    cameFrom.put(q, p);
                    queue.addLast(q);
                }
            }
        }
        return cycle;
    }

    private static final class Tarjan {
        private final Map<String, Set<String>> graph;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<List<String>> found = new ArrayList<>();

        Tarjan(Map<String, Set<String>> graph) {
            this.graph = graph;
        }

        List<List<String>> run() {
            for (String p : new TreeSet<>(graph.keySet())) {
                if (!index.containsKey(p)) {
                    visit(p);
                }
            }
            return found;
        }

        private void visit(String p) {
            index.put(p, index.size());
            low.put(p, index.get(p));
            stack.push(p);
            onStack.add(p);
            for (String q : graph.getOrDefault(p, Set.of())) {
                if (!index.containsKey(q)) {
                    visit(q);
                    low.put(p, Math.min(low.get(p), low.get(q)));
                } else if (onStack.contains(q)) {
                    low.put(p, Math.min(low.get(p), index.get(q)));
                }
            }
            if (low.get(p).equals(index.get(p))) {
                Set<String> component = new TreeSet<>();
                String q;
                do {
                    q = stack.pop();
                    onStack.remove(q);
                    component.add(q);
                } while (!q.equals(p));
                if (component.size() > 1) {
                    found.add(List.copyOf(component));
                }
            }
        }
    }

    private static final Pattern NAME_THEN_PAREN = Pattern.compile("([A-Za-z_$][\\w$]*)\\s*\\(");
    private static final Pattern RECORD = Pattern.compile("\\brecord\\s+([A-Za-z_$][\\w$]*)\\s*(<[^(]*>)?\\s*\\(");
    /** Words before a name and its parentheses that make them a call or a statement, never a declaration. */
    private static final Set<String> NOT_A_TYPE = Set.of("return", "new", "throw", "else", "case", "yield", "assert", "do",
            "instanceof", "extends", "implements", "super", "this", "record");
    /** Words before parentheses that are no method's name. */
    private static final Set<String> NOT_A_NAME = Set.of("if", "for", "while", "switch", "catch", "synchronized", "try",
            "return", "new", "throw", "super", "this", "assert", "yield", "case", "else", "do");

    /**
     * The methods and constructors declared in a source, with records' headers (their components are their canonical
     * constructor's parameters). A declaration is a name and parentheses followed by a body ({@code {}) or throws, or by
     * {@code ;} or default (abstract, interface and annotation methods) where a type stands before the name.
     */
    static List<Declaration> declarations(Source s) {
        String code = s.code();
        List<Declaration> out = new ArrayList<>();
        Matcher r = RECORD.matcher(code);
        while (r.find()) {
            int close = closing(code, r.end() - 1);
            if (close > 0) {
                out.add(new Declaration(s.path(), line(code, r.start()), r.group(1), count(code.substring(r.end(), close))));
            }
        }
        Matcher m = NAME_THEN_PAREN.matcher(code);
        while (m.find()) {
            String name = m.group(1);
            int open = m.end() - 1;
            int close = closing(code, open);
            if (NOT_A_NAME.contains(name) || close < 0) {
                continue;
            }
            String after = code.substring(close + 1).stripLeading();
            int before = m.start() - 1;
            while (before >= 0 && Character.isWhitespace(code.charAt(before))) {
                before--;
            }
            char prev = before < 0 ? ';' : code.charAt(before);
            if (prev == '@' || prev == '.') {
                continue;
            }
            String word = null;
            if (Character.isJavaIdentifierPart(prev)) {
                int start = before;
                while (start > 0 && Character.isJavaIdentifierPart(code.charAt(start - 1))) {
                    start--;
                }
                word = code.substring(start, before + 1);
            }
            boolean typed = word != null ? !NOT_A_TYPE.contains(word)
                    : prev == ']' || prev == '>' && before > 0 && code.charAt(before - 1) != '-' && !Character.isWhitespace(code.charAt(before - 1));
            boolean memberStart = prev == ';' || prev == '{' || prev == '}' || prev == ')';
            boolean body = after.startsWith("{") || after.matches("(?s)throws\\b.*");
            boolean abstractOne = after.startsWith(";") || after.matches("(?s)default\\b.*");
            if (body && (typed || memberStart && word == null) || abstractOne && typed) {
                out.add(new Declaration(s.path(), line(code, m.start()), name, count(code.substring(open + 1, close))));
            }
        }
        return out;
    }

    private static final Pattern ANNOTATION = Pattern.compile("@[\\w.]+");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_$][\\w$]*");

    /** The static fields that are not final: a member whose head (before any =) says static and not final. */
    static List<StaticField> staticNonFinalFields(Source s) {
        String code = s.code();
        List<StaticField> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            } else if (depth == 0 && (c == ';' || c == '{' || c == '}')) {
                String piece = withoutAnnotations(code.substring(start, i));
                int eq = piece.indexOf('=');
                int paren = piece.indexOf('(');
                boolean field = eq >= 0 ? paren < 0 || eq < paren : c == ';' && paren < 0;
                if (field) {
                    String head = eq >= 0 ? piece.substring(0, eq) : piece;
                    Set<String> words = new TreeSet<>();
                    Matcher w = WORD.matcher(head);
                    while (w.find()) {
                        words.add(w.group());
                    }
                    if (words.contains("static") && !words.contains("final") && !words.contains("import")
                            && !words.contains("class") && !words.contains("interface") && !words.contains("enum") && !words.contains("record")) {
                        int at = start + (piece.length() - piece.stripLeading().length());
                        out.add(new StaticField(s.path(), line(code, at), head.strip().replaceAll("\\s+", " ")));
                    }
                }
                start = i + 1;
            }
        }
        return out;
    }

    /** {@code piece} without its annotations' names and arguments, other characters' places kept. */
    private static String withoutAnnotations(String piece) {
        StringBuilder out = new StringBuilder(piece);
        Matcher a = ANNOTATION.matcher(piece);
        while (a.find()) {
            int end = a.end();
            int next = end;
            while (next < piece.length() && Character.isWhitespace(piece.charAt(next))) {
                next++;
            }
            if (next < piece.length() && piece.charAt(next) == '(') {
                int close = closing(piece, next);
                end = close < 0 ? piece.length() : close + 1;
            }
            for (int i = a.start(); i < end; i++) {
                if (!Character.isWhitespace(out.charAt(i))) {
                    out.setCharAt(i, ' ');
                }
            }
        }
        return out.toString();
    }

    /** The parameters in a parameter list: its commas outside brackets, plus one; none when blank. */
    private static int count(String list) {
        if (list.isBlank()) {
            return 0;
        }
        int depth = 0;
        int n = 1;
        for (char c : list.toCharArray()) {
            if (c == '(' || c == '<' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == '>' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                n++;
            }
        }
        return n;
    }

    /** The index of the parenthesis closing the one at {@code open}; -1 if none. */
    private static int closing(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int line(String code, int at) {
        int n = 1;
        for (int i = 0; i < at; i++) {
            if (code.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    /** Java text without comments, and with string, text-block and character literals emptied; line breaks stay. */
    static String strip(String text) {
        return scan(text, (at, literal) -> { });
    }

    /** The string and text-block literals of a source, each with its line, as written between its quotes (escapes kept). */
    static List<Literal> literals(Source s) {
        List<Literal> out = new ArrayList<>();
        String text = s.text();
        int[] counted = {0, 1};
        scan(text, (at, literal) -> {
            for (; counted[0] < at; counted[0]++) {
                counted[1] += text.charAt(counted[0]) == '\n' ? 1 : 0;
            }
            out.add(new Literal(s.path(), counted[1], literal));
        });
        return out;
    }

    /** Where a string or text-block literal starts in a text, and its content. */
    private interface LiteralFound {
        void at(int start, String literal);
    }

    /** {@link #strip}, telling {@code found} each string and text-block literal (not a character literal) in the order they stand. */
    private static String scan(String text, LiteralFound found) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (text.startsWith("//", i)) {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                keepLines(out, text, i, end);
                out.append(' ');
                i = end;
            } else if (text.startsWith("\"\"\"", i)) {
                int end = i + 3;
                while (end < n && !text.startsWith("\"\"\"", end)) {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                found.at(i, text.substring(i + 3, Math.min(n, end)));
                end = Math.min(n, end + 3);
                out.append("\"\"");
                keepLines(out, text, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < n && text.charAt(end) != c && text.charAt(end) != '\n') {
                    end += text.charAt(end) == '\\' ? 2 : 1;
                }
                if (c == '"') {
                    found.at(i, text.substring(i + 1, Math.min(n, end)));
                }
                out.append(c).append(c == '\'' ? "x" : "").append(c);
                i = Math.min(n, end + 1);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static void keepLines(StringBuilder out, String text, int from, int to) {
        for (int k = from; k < to; k++) {
            if (text.charAt(k) == '\n') {
                out.append('\n');
            }
        }
    }
}

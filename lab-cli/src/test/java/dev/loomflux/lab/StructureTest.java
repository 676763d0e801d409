package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.JavaSources.Declaration;
import dev.loomflux.lab.JavaSources.Source;
import dev.loomflux.lab.drivers.Drivers;
import dev.loomflux.lab.experiment.DriverTraits;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The shape of the lab's main code (docs/guide.md, "The code in detail"): no cycle in the package imports; no source file
 * over {@value #MAX_LINES} lines; no method, constructor or record over {@value #MAX_PARAMETERS} parameters in the packages
 * that run a measurement; no static field that is not final outside the entry point's package (state belongs to an object
 * main makes, such as LabProcesses); no string naming a registered driver outside that driver's own package (the rest of the
 * code asks the registry, drivers.Drivers, for a driver's name, title and capabilities).
 */
class StructureTest {
    static final Path MAIN = Path.of("src/main/java/dev/loomflux/lab");
    static final int MAX_LINES = 400;
    static final int MAX_PARAMETERS = 6;
    /** The entry point's package, the one place a static non-final field may live. */
    static final String ENTRY_POINT = "main";
    /** The packages (with their subpackages) whose methods take at most {@value #MAX_PARAMETERS} parameters. */
    static final List<String> FEW_PARAMETERS = List.of("run", "procedure", "measure", "paired");
    /** Each registered driver's name, to the package of its own (that of its type) where a string may name it. */
    static final Map<String, String> DRIVERS = Drivers.ALL.all().stream()
            .collect(Collectors.toMap(DriverTraits::name, d -> JavaSources.of("", "package " + d.getClass().getPackageName() + ";").pkg()));
    /**
     * Strings that name a driver outside its package on purpose, by file, to what the string holds. SchemaUpgrade: an older
     * results.json's field hyperfoil_yaml, renamed to plan as the file is read. ListCommand: the loops profile's "(JMeter)" names
     * the tool whose thread group the profile imitates, as "(ab -c N)" and "(Gatling)" name theirs, not the lab's driver.
     */
    static final Map<String, String> NAMED_ON_PURPOSE = Map.of(
            "result/SchemaUpgrade.java", "hyperfoil_yaml",
            "cli/ListCommand.java", "started over 1 s (JMeter)");
    @Test
    void theMainCodeKeepsItsShape() {
        Map<String, String> found = offences(JavaSources.read(MAIN));
        assertTrue(found.isEmpty(), String.join("\n", found.values()));
    }

    /** The README is the front door (what, why, two commands, concepts, commands, links); detail lives in docs/. */
    @Test
    void theReadmeStaysAFrontDoor() throws java.io.IOException {
        int lines = java.nio.file.Files.readAllLines(Path.of("../README.md")).size();
        assertTrue(lines <= 200, "README.md has " + lines + " lines (at most 200): move detail to docs/");
    }

    /**
     * Every offence against the five rules, by a key that stays put while the code around it moves (what, file, name), to
     * what it is, with the line.
     */
    static Map<String, String> offences(List<Source> sources) {
        Map<String, String> out = new TreeMap<>();
        Map<String, Set<String>> imports = JavaSources.imports(sources);
        for (List<String> cycle : JavaSources.cycles(imports)) {
            String names = String.join(", ", cycle.stream().map(StructureTest::name).toList());
            String loop = String.join(" -> ", JavaSources.loop(imports, cycle).stream().map(StructureTest::name).toList());
            out.put("cycle " + names, "these packages import each other in a cycle: " + names + " (e.g. " + loop + ")");
        }
        for (Source s : sources) {
            int lines = JavaSources.lines(s);
            if (lines > MAX_LINES) {
                out.put("lines " + s.path(), s.path() + " has " + lines + " lines (at most " + MAX_LINES + ")");
            }
            if (fewParameters(s.pkg())) {
                for (Declaration d : JavaSources.declarations(s)) {
                    if (d.parameters() > MAX_PARAMETERS) {
                        out.merge("parameters " + s.path() + " " + d.name(), d.path() + ":" + d.line() + " " + d.name() + " takes "
                                + d.parameters() + " parameters (at most " + MAX_PARAMETERS + ")", (a, b) -> a + "; " + b);
                    }
                }
            }
            if (!s.pkg().equals(ENTRY_POINT)) {
                for (JavaSources.StaticField f : JavaSources.staticNonFinalFields(s)) {
                    out.put("static " + s.path() + " " + f.declaration(), f.path() + ":" + f.line() + " a static field that is not final: "
                            + f.declaration() + " (make it state of an object main makes)");
                }
            }
            for (JavaSources.Literal l : JavaSources.literals(s)) {
                DRIVERS.forEach((name, own) -> {
                    if (l.text().toLowerCase(Locale.ROOT).contains(name) && !inPackage(s.pkg(), own)
                            && !l.text().contains(NAMED_ON_PURPOSE.getOrDefault(s.path(), "\0"))) {
                        out.put("driver " + s.path() + " " + l.text(), l.path() + ":" + l.line() + " names the driver " + name + " outside "
                                + own + ": \"" + l.text() + "\" (ask the registry, drivers.Drivers, for its name, title or capability)");
                    }
                });
            }
        }
        return out;
    }

    private static String name(String pkg) {
        return pkg.isEmpty() ? "(root)" : pkg;
    }

    private static boolean fewParameters(String pkg) {
        return FEW_PARAMETERS.stream()
                .anyMatch(p -> inPackage(pkg, p));
    }

    /** Whether {@code pkg} is {@code p} or one of its subpackages. */
    private static boolean inPackage(String pkg, String p) {
        return pkg.equals(p) || pkg.startsWith(p + ".");
    }

    // The checker on small sources, so that each rule can be seen to fail.

    @Test
    void findsACycleAndNamesItsPackages() {
        List<Source> sources = List.of(
                JavaSources.of("Lab.java", "package dev.loomflux.lab;\nimport dev.loomflux.lab.cli.Run;\nclass Lab {}\n"),
                JavaSources.of("cli/Run.java", "package dev.loomflux.lab.cli;\nimport dev.loomflux.lab.LabException;\nclass Run {}\n"),
                JavaSources.of("a/A.java", "package dev.loomflux.lab.a;\nimport static dev.loomflux.lab.b.B.f;\nclass A {}\n"),
                JavaSources.of("b/B.java", "package dev.loomflux.lab.b;\nclass B { Object c = new dev.loomflux.lab.c.C(); }\n"),
                JavaSources.of("c/C.java", "package dev.loomflux.lab.c;\nimport dev.loomflux.lab.a.*;\nclass C {}\n"),
                JavaSources.of("d/D.java", "package dev.loomflux.lab.d;\n// import dev.loomflux.lab.a.A;\nclass D { String s = \"dev.loomflux.lab.a.A\"; }\n"),
                JavaSources.of("a/x/X.java", "package dev.loomflux.lab.a.x;\nimport dev.loomflux.lab.a.A;\nclass X {}\n"));
        assertEquals(List.of(List.of("", "cli"), List.of("a", "b", "c")), JavaSources.cycles(JavaSources.imports(sources)));
        assertEquals(Set.of(), JavaSources.imports(sources).get("d"), "a comment and a string are no import");
        assertEquals(List.of("a", "b", "c", "a"), JavaSources.loop(JavaSources.imports(sources), List.of("a", "b", "c")));
        assertEquals("these packages import each other in a cycle: (root), cli (e.g. (root) -> cli -> (root))",
                offences(sources).get("cycle (root), cli"));
    }

    @Test
    void countsLinesAsWcDoes() {
        assertEquals(MAX_LINES + 1, JavaSources.lines(JavaSources.of("Big.java", "class Big {}\n" + "\n".repeat(MAX_LINES))));
        assertTrue(offences(List.of(JavaSources.of("run/Big.java", "package dev.loomflux.lab.run;\n" + "\n".repeat(MAX_LINES))))
                .containsKey("lines run/Big.java"));
    }

    @Test
    void findsDeclarationsAndTheirParametersButNotCalls() {
        String text = """
                package dev.loomflux.lab.run;

                /** Not a declaration: seven(a, b, c, d, e, f, g) { */
                public final class Wide {
                    private final int x;

                    public Wide(int a, int b, int c, int d, int e, int f, int g) {
                        this(a + b, c);
                        String s = "seven(a, b, c, d, e, f, g) {";
                        if (a > b) {
                            call(a, b, c, d, e, f, g);
                        }
                        Runnable r = () -> call(a, b, c, d, e, f, g);
                        new Thread(() -> call(1, 2, 3, 4, 5, 6, 7)) {
                        };
                    }

                    Wide(int sum, int c) {
                        x = sum > c ? call(1, 2, 3, 4, 5, 6, 7) : c;
                    }

                    static <T> java.util.Map<String, java.util.List<T>> generic(java.util.Map<String, Integer> m, @Deprecated(since = "1, 2") T t,
                            int[] a, int b, int c, int d, int e) throws Exception {
                        return null;
                    }

                    private static int call(int a, int b, int c, int d, int e, int f, int g) {
                        return a;
                    }

                    interface Shape {
                        double area(double a, double b, double c, double d, double e, double f, double g);

                        default double none() {
                            return area(1, 2, 3, 4, 5, 6, 7);
                        }
                    }

                    record Row<T>(T a, int b, int c, int d, int e, int f, int g) {
                        Row {
                            java.util.Objects.requireNonNull(a);
                        }
                    }

                    enum Kind {
                        ONE(1), TWO(2);

                        Kind(int n) {
                        }
                    }
                }
                """;
        List<String> found = JavaSources.declarations(JavaSources.of("run/Wide.java", text)).stream()
                .map(d -> d.line() + " " + d.name() + " " + d.parameters()).sorted().toList();
        assertEquals(List.of("18 Wide 2", "22 generic 7", "27 call 7", "32 area 7", "34 none 0", "39 Row 7", "48 Kind 1", "7 Wide 7"), found);
        Map<String, String> offences = offences(List.of(JavaSources.of("run/Wide.java", text), JavaSources.of("report/Wide.java",
                text.replace("package dev.loomflux.lab.run;", "package dev.loomflux.lab.report;"))));
        assertEquals(Set.of("parameters run/Wide.java Wide", "parameters run/Wide.java generic", "parameters run/Wide.java call",
                "parameters run/Wide.java area", "parameters run/Wide.java Row"), offences.keySet(), "report/ may take more");
    }

    @Test
    void findsStaticFieldsThatAreNotFinalOutsideTheEntryPoint() {
        String text = """
                package dev.loomflux.lab.%s;

                import static java.util.Objects.requireNonNull;

                class Holder {
                    private static final java.util.List<String> CONSTANT = java.util.List.of("static int no;");
                    static int counter;
                    @Deprecated(since = "x") private static volatile String last = String.valueOf(1), other;
                    static java.util.function.IntSupplier next = () -> { return counter++; };
                    final int mine = 0;
                    static int twice(int a) {
                        int local = a;
                        return local * 2;
                    }
                    static {
                        counter = 1;
                    }
                    static class Nested {
                        static final int[] TABLE = {1, 2};
                    }
                }
                """;
        List<String> found = JavaSources.staticNonFinalFields(JavaSources.of("x/Holder.java", text.formatted("x"))).stream()
                .map(f -> f.line() + " " + f.declaration()).toList();
        assertEquals(List.of("7 static int counter", "8 private static volatile String last", "9 static java.util.function.IntSupplier next"),
                found);
        assertEquals(3, offences(List.of(JavaSources.of("x/Holder.java", text.formatted("x")))).size());
        assertEquals(Map.of(), offences(List.of(JavaSources.of("main/Holder.java", text.formatted(ENTRY_POINT)))));
    }

    @Test
    void findsStringsNamingADriverOutsideItsPackage() {
        String text = """
                package dev.loomflux.lab.%s;

                // Hyperfoil, in a comment, and JMeter's in {@code jmeter} javadoc may name them.
                class Words {
                    String plain = "the load driver";
                    String sentence = "Every block ran on 2 JMeter agents";
                    String quoted = "say \\"hyperfoil\\" \\\\";
                    char c = '"';
                    String block = \"""
                            ran on HyperFoil
                            \""";
                    String after = "jmeter";
                }
                """;
        String block = "\n            ran on HyperFoil\n            ";
        assertEquals(List.of("5 the load driver", "6 Every block ran on 2 JMeter agents", "7 say \\\"hyperfoil\\\" \\\\", "9 " + block, "12 jmeter"),
                JavaSources.literals(JavaSources.of("cli/Words.java", text.formatted("cli"))).stream().map(l -> l.line() + " " + l.text()).toList());
        assertEquals(List.of("driver cli/Words.java " + block, "driver cli/Words.java Every block ran on 2 JMeter agents", "driver cli/Words.java jmeter",
                "driver cli/Words.java say \\\"hyperfoil\\\" \\\\"), List.copyOf(offences(List.of(JavaSources.of("cli/Words.java", text.formatted("cli")))).keySet()));
        assertEquals(Set.of("driver driver/hyperfoil/Words.java Every block ran on 2 JMeter agents", "driver driver/hyperfoil/Words.java jmeter"),
                offences(List.of(JavaSources.of("driver/hyperfoil/Words.java", text.formatted("driver.hyperfoil")))).keySet(), "a driver's package names itself only");
        assertEquals(Map.of(), offences(List.of(JavaSources.of("result/SchemaUpgrade.java",
                "package dev.loomflux.lab.result;\nclass SchemaUpgrade { String old = \"hyperfoil_yaml\"; }\n"))), "named on purpose");
    }
}

package dev.loomflux.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad input gets one line naming the culprit and exit code 2, never a stack trace. */
class BadInputTest {
    @TempDir
    Path dir;

    /** Names that would leave results/ or are not a file name at all. */
    static List<String> namesThatCannotBePaths() {
        return List.of("../../../etc/evil", "/tmp/evil", "a/b", "..", ".", "nul\0byte", "back\\slash", "x".repeat(61), "");
    }

    @ParameterizedTest
    @MethodSource("namesThatCannotBePaths")
    void experimentNamesNeverBecomePathsOutsideResults(String name) throws IOException {
        Path results = Home.detect().results();
        List<Path> before = listing(results);
        Path yaml = dir.resolve("evil.yaml");
        // JSON string syntax is YAML too, and escapes the NUL and the backslash.
        Files.writeString(yaml, "name: \"" + name.replace("\\", "\\\\").replace("\0", "\\0") + "\"\ntargets: [mvc]\nscenarios: [plaintext]\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), yaml + ": name '");
        assertOneLineError(LabCli.of("run", "--name", name, "--targets", "mvc"), "--name '");
        assertEquals(before, listing(results), "nothing created under results/");
        assertFalse(Files.exists(Home.detect().root().resolveSibling("etc")), "nothing created next to the project");
    }

    @Test
    void aDriverThatCannotRunTheDesignOrDoesNotExist() {
        assertOneLineError(LabCli.of("run", "--driver", "jmeter", "--profile", "rate", "--rps", "10", "--design", "paired"),
                "lab: --driver jmeter: the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential");
        assertOneLineError(LabCli.of("run", "--driver", "k6", "--design", "sequential"), "lab: --driver k6: expected hyperfoil or jmeter");
    }

    @Test
    void aCapacityLadderNeedsAPercentileItsBlocksKeepAndItsFlagsOnlyInItsDesign() {
        assertOneLineError(LabCli.of("capacity", "--slo", "p95<50ms"),
                "lab: --slo p95: a paired capacity judges each block by its p50 or p99; use one of them, or --design sequential");
        assertOneLineError(LabCli.of("capacity", "--slo", "p99 under 50"), "lab: --slo p99 under 50: expected PERCENTILE<NUMBERms");
        assertOneLineError(LabCli.of("capacity", "--design", "sequential", "--rungs", "4"), "lab: --rungs applies to --design paired only");
        assertOneLineError(LabCli.of("run", "--fresh-jvms", "--targets", "mvc,webflux"),
                "lab: fresh-jvms: only for a shape (stages, loops or a burst) measured in paired rounds (--design paired)");
        assertOneLineError(LabCli.of("capacity", "--step", "5s"), "lab: --step applies to --design sequential only: the ladder measures each rung in rounds of --block");
        assertOneLineError(LabCli.of("capacity", "--repeat", "2"), "lab: --repeat 2: the paired design measures sets of JVMs in the same rounds");
    }

    /** The same refusals when the experiment file chose the driver: they name its field. */
    @Test
    void aFilesDriverThatCannotRunItsDesignNamesTheField() throws IOException {
        Path yaml = dir.resolve("agents.yaml");
        String targets = "targets: [mvc]\nscenarios: [plaintext]\n";
        String experiment = targets + "profile: {fixed: {users: 2, duration: 5s}}\n";
        Files.writeString(yaml, targets + "profile: {rate: {rps: 10, duration: 5s}}\ndesign: paired\ndriver: jmeter\n");
        assertOneLineError(LabCli.of("run", yaml.toString()),
                "lab: " + yaml + ": driver: the paired design's rate blocks need the Hyperfoil driver; use --profile fixed or --design sequential");
        Files.writeString(yaml, experiment + "driver: {jmeter: {agents: [127.0.0.1:1099]}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml
                + ": driver.jmeter.agents: agents on other hosts need keystore, the keystore they were started with (./lab agent)");
        Files.writeString(yaml, experiment + "driver: {jmeter: {agents: [127.0.0.1:1099], keystore: none.p12}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": driver.jmeter.keystore " + dir.resolve("none.p12") + ": no such readable file");
        Files.writeString(yaml, experiment + "driver: {jmeter: {agents: 9}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": driver.jmeter.agents: expected 1..8 local agents");
        Files.writeString(yaml, experiment + "driver: {jmeter: {agents: 2}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString(), "--driver", "hyperfoil", "--agents", "2"), "lab: --agents: JMeter's agents; add --driver jmeter");
    }

    /** A JMeter plan of your own that cannot run is one line naming --plan, or the file's field, before anything starts. */
    @Test
    void aPlanOfYourOwnThatCannotRunIsRefusedNamingWhy() throws IOException {
        Path plan = Home.detect().root().resolve("experiments").resolve("own-plan.jmx");
        String sequential = "lab: --plan " + plan + ": a plan of your own runs in the sequential design (the paired design's rounds are plans the lab"
                + " writes); use --design sequential";
        assertOneLineError(LabCli.of("run", "--driver", "jmeter", "--plan", plan.toString(), "--design", "paired"), sequential);
        assertOneLineError(LabCli.of("run", "--driver", "hyperfoil", "--plan", plan.toString()),
                "lab: --plan " + plan + ": a JMeter plan runs on the JMeter driver, not --driver hyperfoil");
        assertOneLineError(LabCli.of("run", "--driver", "jmeter", "--agents", "2", "--plan", plan.toString(), "--design", "sequential"),
                "lab: --plan " + plan + ": a plan of your own runs on one local JMeter, not on agents (each agent would run all of its users)");
        assertOneLineError(LabCli.of("run", "--plan", plan.toString(), "--scenario", "json"),
                "lab: --scenario cannot be combined with --plan: the plan's samplers send the requests");
        assertOneLineError(LabCli.of("run", "--plan", plan.toString(), "--profile", "rate", "--rps", "10"),
                "lab: --plan: a plan of your own runs under the fixed profile without --think: the lab gives it --users and --duration");
        assertOneLineError(LabCli.of("sweep", "--plan", plan.toString(), "--targets", "mvc", "--vary", "users=4,16"),
                "lab: --plan: a sweep varies the lab's own load and scenarios; run the plan with ./lab run");
        assertOneLineError(LabCli.of("calibrate", "--driver", "jmeter", "--plan", plan.toString()),
                "lab: --plan: calibrate measures the load driver on plans of its own, against the stub");
        assertOneLineError(LabCli.of("run", "--plan", "no-such.jmx"), "lab: --plan no-such.jmx: no such readable file");
        Path notAPlan = Files.writeString(dir.resolve("not-a-plan.jmx"), "targets: [mvc]\n");
        assertOneLineError(LabCli.of("run", "--plan", notAPlan.toString()),
                "lab: --plan " + notAPlan + ": not a JMeter plan (JMeter cannot load it: XmlPullParserException: ");
        Path fixed = Files.writeString(dir.resolve("fixed.jmx"), Files.readString(plan).replace("${__P(host)}", "shop.example.com"));
        String fixedHost = ": sampler 'plaintext' sends to host 'shop.example.com', not ${__P(host)}: the lab cannot point it at each target";
        assertOneLineError(LabCli.of("run", "--driver", "jmeter", "--plan", fixed.toString()), "lab: --plan " + fixed + fixedHost);

        Path yaml = dir.resolve("plan.yaml");
        String fixedLoad = "targets: [mvc]\nprofile: {fixed: {users: 2, duration: 5s}}\n";
        Files.writeString(yaml, fixedLoad + "driver: {jmeter: {plan: fixed.jmx}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": driver.jmeter.plan " + fixed + fixedHost);
        Files.writeString(yaml, fixedLoad + "scenarios: [json]\ndriver: {jmeter: {plan: fixed.jmx}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": scenarios: the plan of driver.jmeter.plan sends the requests; remove scenarios");
        Files.writeString(yaml, "targets: [mvc]\nprofile: {loops: {users: 2, requests: 10}}\ndriver: {jmeter: {plan: fixed.jmx}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": profile: the plan of driver.jmeter.plan runs under the fixed profile without think");
        Files.writeString(yaml, fixedLoad + "design: paired\ndriver: {jmeter: {plan: " + plan + "}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": driver.jmeter.plan " + plan
                + ": a plan of your own runs in the sequential design");
        assertOneLineError(LabCli.of("run", yaml.toString(), "--driver", "hyperfoil"), "lab: " + yaml + ": driver.jmeter.plan " + plan
                + ": a JMeter plan runs on the JMeter driver, not --driver hyperfoil");
        assertOneLineError(LabCli.of("run", yaml.toString(), "--plan", plan.toString()),
                "lab: --plan cannot be combined with an experiment file; name the plan in the file: driver: {jmeter: {plan: FILE.jmx}}");
    }

    /** A file's params: the missing one says how to get its value, as petclinic.yaml says how to build the jar. */
    @Test
    void aParamTheFileNeedsSaysHowToGetIt() throws IOException {
        Path preset = Home.detect().root().resolve("experiments").resolve("petclinic.yaml");
        LabCli missing = LabCli.of("run", preset.toString());
        assertOneLineError(missing, "lab: " + preset + ": params.jar: give --param jar=VALUE; build it: git clone"
                + " https://github.com/spring-petclinic/spring-petclinic-rest && cd spring-petclinic-rest && ./mvnw -DskipTests package (JDK 17+),"
                + " then give --param jar=target/spring-petclinic-rest-VERSION.jar (docs/own-app.md)");
        Path absent = dir.resolve("no.jar");
        assertTrue(LabCli.of("run", preset.toString(), "--param", "jar=" + absent).err().startsWith("lab: --param jar=" + absent + ": no such file; build it: "));
        assertOneLineError(LabCli.of("run", preset.toString(), "--param", "jar=" + absent, "--param", "war=x"),
                "lab: --param war: " + preset + ": params declares only jar");
        assertOneLineError(LabCli.of("run", "--param", "jar=x"), "lab: --param gives a value an experiment file asks for under params; name the file");
    }

    /** A user's rules for the CPU profile's categories: a file that is not there, or a line that cannot be a rule, before anything starts. */
    @Test
    void profileRulesThatCannotBeReadOrParsedAreRefusedNamingTheLine() throws IOException {
        assertOneLineError(LabCli.of("run", "--cpu-profile-rules", "no-such.tsv"), "lab: --cpu-profile-rules no-such.tsv: no such readable file");
        Path rules = dir.resolve("rules.tsv");
        Files.writeString(rules, "# mine\napp\tcom.example.\nbilling\tcom.example.billing.\n");
        assertOneLineError(LabCli.of("run", "--cpu-profile-rules", rules.toString()), "lab: " + rules + ": line 3: unknown category 'billing' (one of ");
        Files.writeString(rules, "app\tcom.example.\ndb\tcom.example.billing.\n");
        assertOneLineError(LabCli.of("run", "--cpu-profile-rules", rules.toString()),
                "lab: " + rules + ": line 2: prefix com.example.billing. can never match: line 1's prefix com.example. comes first and covers it");
    }

    @Test
    void anUnknownProfilerIsRefusedNamingTheChoices() {
        assertOneLineError(LabCli.of("run", "--cpu-profiler", "perf"), "lab: --cpu-profiler perf: expected one of jfr, async, async-wall");
    }

    @Test
    void aLeadInMustBeWholeSecondsOfAPairedDesign() {
        assertOneLineError(LabCli.of("run", "--lead-in", "500ms"), "lab: --lead-in 500ms: expected whole seconds from 0s to 60s");
        assertOneLineError(LabCli.of("run", "--design", "sequential", "--lead-in", "1s"), "lab: --lead-in applies to --design paired only");
        assertOneLineError(LabCli.of("run", "--design", "sequential", "--lead-in-rounds", "2"), "lab: --lead-in-rounds applies to --design paired only");
        assertOneLineError(LabCli.of("run", "--lead-in-rounds", "101"), "lab: --lead-in-rounds 101: expected 0..100");
    }

    @Test
    void thinkTimeLongerThanATenthOfAPairedBlockIsRefused() {
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--think", "100ms..200ms", "--design", "paired"),
                "lab: --think 100ms..200ms: a paired block must last 10 of the longest pause, 2000ms, not 1000ms; give a longer block or the sequential design");
    }

    /** A flag or field of an older lab is refused with the name that replaced it, rather than read as it once was. */
    @Test
    void anOldNameSaysItsNewName() throws IOException {
        assertOneLineError(LabCli.of("run", "--connections", "5"), "lab: --connections is now --users");
        assertOneLineError(LabCli.of("run", "--profile", "rate", "--rps", "10", "--max-users", "5"), "lab: --max-users is now --max-in-flight");
        assertOneLineError(LabCli.of("sweep", "--max-users", "5", "--vary", "rate=10,20"), "lab: --max-users is now --max-in-flight");
        assertOneLineError(LabCli.of("run", "--profiler", "async"), "lab: --profiler is now --cpu-profiler");
        assertOneLineError(LabCli.of("run", "--profile-rules", "mine.tsv"), "lab: --profile-rules is now --cpu-profile-rules");
        Path yaml = dir.resolve("old.yaml");
        Files.writeString(yaml, "targets: [mvc]\nscenarios: [plaintext]\nprofile: {rate: {rps: 10, max-users: 5}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": profile.rate.max-users: is now max-in-flight");
    }

    /** The paired design's JVMs come in sets, the sequential design's in repeats: each refuses the other's word and names its own. */
    @Test
    void setsArePairedAndRepeatsSequential() throws IOException {
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--repeat", "3"),
                "lab: --repeat 3: the paired design measures sets of JVMs in the same rounds; use --sets 3");
        assertOneLineError(LabCli.of("run", "--design", "sequential", "--targets", "mvc", "--sets", "2"),
                "lab: --sets 2: sets are the paired design's; this run measures one target after another"
                        + " (--design sequential, or a profile other than fixed and rate): use --repeat 2");
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--sets", "0"), "lab: --sets 0: expected 1..100");
        Path yaml = dir.resolve("jvms.yaml");
        String experiment = "targets: [mvc]\nscenarios: [plaintext]\nprofile: {fixed: {users: 2, duration: 5s}}\n";
        Files.writeString(yaml, experiment + "design: paired\nrepeat: 2\n");
        assertOneLineError(LabCli.of("run", yaml.toString()),
                "lab: " + yaml + ": repeat: applies to design: sequential; the paired design's JVM sets are sets: 2");
        Files.writeString(yaml, experiment + "repeat: 2\n");
        assertOneLineError(LabCli.of("run", yaml.toString()),
                "lab: " + yaml + ": repeat: applies to design: sequential; the paired design's JVM sets are sets: 2");
        Files.writeString(yaml, experiment + "design: sequential\nsets: 2\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": sets: sets are the paired design's (a fixed or rate profile);"
                + " this experiment measures one target after another: write repeat: 2");
    }

    @Test
    void aFileNameThatIsNoNameBecomesOne() throws IOException {
        Path yaml = dir.resolve("my first (test).yaml");
        Files.writeString(yaml, "targets: [tomcat]\nscenarios: [plaintext]\n");
        // The name is fine (spaces and brackets became '-'); the run stops at the next field.
        assertOneLineError(LabCli.of("run", yaml.toString()), "unknown target 'tomcat'");
    }

    @Test
    void flagsAndExperimentFilesShareOneProfileReadingWithTheSameLimits() throws IOException {
        String[][] cases = {
                {"--profile fixed --users 0", "{fixed: {users: 0}}", "0 is out of range 1..100000", "--users 0: ", "profile.fixed.users: "},
                {"--profile loops --users 100001", "{loops: {users: 100001}}", "100001 is out of range 1..100000", "--users 100001: ",
                        "profile.loops.users: "},
                {"--profile burst --requests 0", "{burst: {requests: 0}}", "0 is out of range 1..10000000", "--requests 0: ", "profile.burst.requests: "},
                {"--profile rate --duration 5s", "{rate: {duration: 5s}}", "required by the rate profile", "--rps: ", "profile.rate.rps: "},
                {"--profile rate --rps 10 --max-in-flight 0", "{rate: {rps: 10, max-in-flight: 0}}", "0 is out of range 1..100000", "--max-in-flight 0: ",
                        "profile.rate.max-in-flight: "},
                {"--profile fixed --duration 0s", "{fixed: {duration: 0s}}", "must be longer than 0", "--duration 0s: ", "profile.fixed.duration: "},
                {"--profile stages --stages 10s:0,5s:0", "{stages: [{duration: 10s, users: 0}, {duration: 5s, users: 0}]}", "no stage has users",
                        "--stages 10s:0,5s:0: ", "profile.stages: "},
                {"--profile rate --rps 10 --think 1s", "{rate: {rps: 10}, think: 1s}", "applies to the closed profiles (stages, fixed, loops, burst)",
                        "--think 1s: ", "profile.think: "},
                {"--think 3s..1s", "{fixed: {users: 5}, think: 3s..1s}", "3s..1s ends before it starts", "--think 3s..1s: ", "profile.think: "},
                {"--profile soak", "{soak: {users: 1}}", "unknown profile (allowed: stages, fixed, loops, burst, rate)", "--profile soak: ",
                        "profile.soak: "}};
        for (String[] c : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("run", "--design", "sequential", "--targets", "mvc"));
            args.addAll(List.of(c[0].split(" ")));
            LabCli flags = LabCli.of(args.toArray(String[]::new));
            Path yaml = dir.resolve("p.yaml");
            Files.writeString(yaml, "targets: [mvc]\nscenarios: [plaintext]\nprofile: " + c[1] + "\n");
            LabCli file = LabCli.of("run", yaml.toString());
            assertOneLineError(flags, c[3] + c[2]);
            assertOneLineError(file, yaml + ": " + c[4] + c[2]);
        }
    }

    private static List<Path> listing(Path d) throws IOException {
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().toList();
        }
    }

    /** Refused before anything starts: run with ./lab, this test's JVM keeps the shell's limit (20,000 on CI here). */
    @Test
    void moreConnectionsThanTheOpenFileLimitIsOneLineBeforeAnythingStarts() throws IOException {
        Path proc = Path.of("/proc/self/limits");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(proc), "no /proc here: the lab cannot read the limit either");
        String limits = Files.readString(proc);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Max open files\\s+(\\d+)").matcher(limits);
        org.junit.jupiter.api.Assumptions.assumeTrue(m.find() && Long.parseLong(m.group(1)) < 6_000_000, "no open-file limit under 6,000,000 here");
        assertOneLineError(LabCli.of("run", "--users", "100000", "--sets", "20", "--no-pin"),
                "--users 100000: the load driver holds 6,000,000 connections at once (100,000 users x 60 target JVMs");
    }

    /** A malformed flow is refused before anything starts, naming the file, the flow and the step. */
    @Test
    void aMalformedFlowIsOneLineNamingFileFlowAndStep() throws IOException {
        Path results = Home.detect().results();
        List<Path> before = listing(results);
        Path yaml = dir.resolve("flow.yaml");
        String head = "targets: [mvc]\nprofile: {fixed: {users: 2, duration: 5s}}\nscenarios:\n  - flow: crud\n    steps:\n";
        Files.writeString(yaml, head + "      - {name: create, method: POST, path: /items, body: '{}', extract: {id: $.id}}\n"
                + "      - {name: read, method: FETCH, path: '/items/${id}'}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": scenarios[0].steps[1].method: flow crud, step read: unknown method 'FETCH'");
        Files.writeString(yaml, head + "      - {name: read, path: '/items/${id}'}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()),
                "lab: " + yaml + ": scenarios[0].steps[0].path: flow crud, step read: path uses ${id}, which no earlier step extracts and no data defines");
        Files.writeString(yaml, head + "      - {name: create, method: POST, path: /items, body: {file: item.json}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": scenarios[0].steps[0].body.file: flow crud, step create: cannot read the body file "
                + dir.resolve("item.json") + " (no such file)");
        Files.writeString(yaml, head + "      - {name: create, method: POST, path: /items, extract: {id: '$..id'}}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": scenarios[0].steps[0].extract.id: flow crud, step create: extract id: '$..id'");
        Files.writeString(yaml, "targets: [mvc]\nprofile: {fixed: {users: 2, duration: 5s}}\nscenarios:\n  - mix: shop\n    flows:\n"
                + "      - {flow: a, weight: 80, steps: [{name: x, path: /}]}\n      - {flow: b, weight: -1, steps: [{name: y, path: /}]}\n");
        assertOneLineError(LabCli.of("run", yaml.toString()), "lab: " + yaml + ": scenarios[0].flows[1].weight: mix shop, flow b: weight must be a whole number");
        assertOneLineError(LabCli.of("run", "--scenario", "crud", "--profile", "loops"),
                "lab: profile loops: flow crud runs iterations of its steps, and loops counts requests per user: use fixed, stages or rate");
        assertEquals(before, listing(results), "nothing created under results/");
    }

    private static void assertOneLineError(LabCli run, String expected) {
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains(expected), run.toString());
        assertEquals(1, run.err().strip().lines().count(), run.toString());
        assertFalse(run.err().contains("\tat "), run.toString());
    }

    /** Limits the kernel refuses, or that would limit nothing, are refused before anything starts (they failed every target with exit 0). */
    @Test
    void limitsThatCannotWorkAreOneLineBeforeAnythingStarts() throws IOException {
        Path results = Home.detect().results();
        List<Path> before = listing(results);
        Path tiny = dir.resolve("tiny.yaml");
        Files.writeString(tiny, "targets: [mvc]\nscenarios: [plaintext]\nprofile: {fixed: {users: 1, duration: 1s}}\nlimits: {cpus: 0.001}\n");
        assertOneLineError(LabCli.of("run", tiny.toString()), "lab: " + tiny + ": limits.cpus 0.001: below the kernel's smallest CPU quota, 0.01 (1 ms per 100 ms period)");
        Path own = dir.resolve("own.yaml");
        Files.writeString(own, "targets: [mvc, {name: mvc-tiny, base: mvc, limits: {cpus: 0.005}}]\nscenarios: [plaintext]\nprofile: {fixed: {users: 1, duration: 1s}}\n");
        assertOneLineError(LabCli.of("run", own.toString()), "lab: " + own + ": target mvc-tiny: limits.cpus 0.005: below the kernel's smallest");
        // --cpus replaces the file's quota, and is named as the flag.
        assertOneLineError(LabCli.of("run", tiny.toString(), "--cpus", "0.009"), "lab: --cpus 0.009: below the kernel's smallest CPU quota");
        int cpus = Runtime.getRuntime().availableProcessors();
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--no-pin", "--cpus", "64"),
                "lab: --cpus 64: more than the " + cpus + " CPU(s) the targets run on (0" + (cpus > 1 ? "," : ")"));
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--memory", "256m"),
                "lab: --memory 256m: not above the targets' heap of 512m (--heap, all of it committed at start)");
        assertOneLineError(LabCli.of("run", "--targets", "mvc", "--memory", "1g", "--heap", "1g"), "lab: --memory 1024m: not above the targets' heap of 1g");
        assertEquals(before, listing(results), "nothing created under results/");
    }

    @Test
    void aSweepNeedsAGridAndNamesTheBadAxis() {
        assertOneLineError(LabCli.of("sweep", "--targets", "mvc"), "sweep: give --vary NAME=V1,V2,...");
        assertOneLineError(LabCli.of("sweep", "--targets", "mvc", "--vary", "users=0,10"), "--vary users: 0 is out of range 1..100000");
        assertOneLineError(LabCli.of("sweep", "--targets", "mvc", "--vary", "users"), "--vary users: expected NAME=V1,V2,...");
        assertOneLineError(LabCli.of("sweep", "--targets", "mvc", "--scenario", "json", "--vary", "delay=0,20"), "sweep: delay does not apply to scenario json");
        assertOneLineError(LabCli.of("sweep", "--targets", "mvc", "--vary", "users=1", "--vary", "work=1", "--vary", "size=1"), "--vary: at most 2");
        // --vary replaces a preset's grid (delay x users) rather than adding to it: page is checked against its gateway
        assertOneLineError(LabCli.of("sweep", "map-gateway", "--vary", "page=0,1"), "sweep: page does not apply to scenario gateway");
        assertOneLineError(LabCli.of("run", "--design", "sequential", "--targets", "mvc", "--scenario", "gateway", "--dist", "lognormal"),
                "--dist: parameter 'p99' is required for dist=lognormal");
    }

    @Test
    void unknownTarget() {
        assertOneLineError(LabCli.of("verify", "--targets", "mvc,tomcat"), "--targets: unknown target 'tomcat'");
    }

    @Test
    void malformedDefinition() {
        assertOneLineError(LabCli.of("verify", "--define", "mvc-10"), "--define mvc-10: expected NAME=BASE");
    }

    /** Refused before anything starts: the target itself would refuse only after the database and the stub were up. */
    @Test
    void aDownstreamClientTheAppDoesNotOffer() {
        assertOneLineError(LabCli.of("verify", "--define", "wf-jdk=webflux,loomflux.http-client.library=jdk-httpclient", "--targets", "wf-jdk"),
                "--define wf-jdk=webflux,loomflux.http-client.library=jdk-httpclient: loomflux.http-client.library 'jdk-httpclient' is not a client the webflux app offers (reactor-netty)");
        assertOneLineError(LabCli.of("verify", "--define", "vt-ok=mvc-vt,loomflux.http-client.library=okhttp", "--targets", "vt-ok"),
                "loomflux.http-client.library 'okhttp' is not a client the mvc app offers (apache-httpclient5, jdk-httpclient, reactor-netty)");
    }

    @Test
    void unknownOption() {
        assertOneLineError(LabCli.of("verify", "--tragets", "mvc"), "Unknown options: '--tragets'");
    }

    @Test
    void badHeap() {
        assertOneLineError(LabCli.of("verify", "--heap", "lots"), "--heap lots");
    }

    @Test
    void javaTooOldOrMissing() throws IOException {
        assertOneLineError(LabCli.of("verify", "--java", "/nonexistent/jdk"), "--java /nonexistent/jdk: not a JDK");
        // A JDK 17 as the lab finds one: its release file says so (the lab reads it, not java -version).
        Path jdk17 = dir.resolve("jdk-17");
        Files.createDirectories(jdk17.resolve("bin"));
        Files.writeString(jdk17.resolve("bin/java"), "");
        Files.writeString(jdk17.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        assertOneLineError(LabCli.of("run", "--design", "sequential", "--java", jdk17.toString(), "--targets", "mvc", "--duration", "1s"),
                "--java " + jdk17 + ": JDK 17.0.15 is too old; targets need 21+ (virtual threads)");
    }

    @Test
    void helpListsCommands() {
        LabCli run = LabCli.of("--help");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("verify"), run.out());
    }
}

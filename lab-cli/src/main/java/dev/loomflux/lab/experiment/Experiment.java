package dev.loomflux.lab.experiment;

import dev.loomflux.lab.UsageException;
import dev.loomflux.lab.limits.ResourceLimits;
import dev.loomflux.lab.sut.TargetSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Targets x scenarios under one load profile, plus how to run them: the unit a user asks for. Made by its {@link Builder}.
 *
 * @param sets    the paired design's sets of JVMs of each target, all measured in the same rounds; read only when it is
 *                measured in rounds ({@link #inRounds})
 * @param repeats the sequential design's repeats: every target x scenario run that many times, interleaved and
 *                counterbalanced (A B C C B A A B C, see {@link #order}), each time in a fresh target JVM; read only when
 *                it is not measured in rounds
 * @param limits  the container-like limits every target gets, from the file; flags override them
 * @param sweep   when not null, every target x scenario is measured in every cell of this grid instead of once
 * @param idle    how long each ready target JVM sits without load before its first scenario (seed 000's
 *                "idle" phase: its idle RSS and threads)
 * @param design  paired rounds or one target after another ({@link Design})
 * @param driver  the load driver the experiment file asks for ({@link DriverChoice#NONE} when none); the flags can choose another
 * @param freshJvms in rounds of a shape, a fresh JVM of every target before each of its blocks after its first, as asked
 *                ({@code --fresh-jvms}, {@code fresh-jvms: true}); else a JVM is started afresh only when the shape kills it
 */
public record Experiment(String name, List<TargetSpec> targets, List<Scenario> scenarios, LoadProfile profile,
                         Duration warmup, Duration cooldown, int sets, int repeats, ResourceLimits limits, Sweep sweep, Duration idle, Design design,
                         DriverChoice driver, boolean freshJvms) {
    /**
     * The warmup budget: warmup ends as soon as the target is steady (docs/steady-state.md). Platform-thread
     * MVC on one CPU needed 110 s on plaintext at 50 users, its C2 compiler starved by 50 busy workers.
     */
    public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(180);
    public static final Duration DEFAULT_COOLDOWN = Duration.ofSeconds(10);
    public static final Duration DEFAULT_IDLE = Duration.ofSeconds(3);
    /** The resource sampler ticks every second: a shorter idle phase could hold no sample at all. */
    private static final Duration MIN_IDLE = Duration.ofSeconds(2);
    /** What interleaved rounds need of the profile: blocks of the same load, one after another ({@link #measuredInRounds}). */
    private static final String STEADY_LOAD = "a steady load (a fixed or rate profile, no sweep)";
    /** No '/', '\\', NUL or ".." alone: the name becomes a directory under results/ and must stay there. */
    private static final Pattern NAME = Pattern.compile("(?!\\.{1,2}$)[A-Za-z0-9._+-]{1,60}");

    /** An experiment of these targets, scenarios and profile; the builder's defaults for the rest (one JVM each, sequential). */
    public static Builder builder(String name, List<TargetSpec> targets, List<Scenario> scenarios, LoadProfile profile) {
        return new Builder(name, targets, scenarios, profile);
    }

    /** A builder holding every field of this experiment, to change some of them. */
    public Builder toBuilder() {
        return new Builder(name, targets, scenarios, profile).warmup(warmup).cooldown(cooldown).sets(sets).repeats(repeats).limits(limits).sweep(sweep)
                .idle(idle).design(design).driver(driver).freshJvms(freshJvms);
    }

    /** Checks a name given by the user; {@code where} names the flag or file field it came from. */
    public static String checkName(String name, String where) {
        if (name == null || !NAME.matcher(name).matches()) {
            String shown = name == null ? "" : name.replaceAll("\\p{Cntrl}", "?");
            throw new UsageException(where + " '" + (shown.length() > 70 ? shown.substring(0, 70) + "..." : shown)
                    + "': use letters, digits, '.', '_', '+' or '-' (at most 60)");
        }
        return name;
    }

    /** A name from a file name: the characters a name cannot have become '-'. */
    public static String nameFrom(String fileName) {
        String slug = fileName.replaceAll("[^A-Za-z0-9._+-]+", "-");
        return slug.length() > 60 ? slug.substring(0, 60) : slug;
    }

    public Experiment {
        targets = List.copyOf(targets);
        scenarios = List.copyOf(scenarios);
        if (sets < 1 || repeats < 1) {
            throw new IllegalArgumentException("sets " + sets + ", repeats " + repeats);
        }
        design = design == null ? Design.SEQUENTIAL : design;
        driver = driver == null ? DriverChoice.NONE : driver;
        String tooShort = thinkProblem(profile, design);
        if (tooShort != null) {
            throw new UsageException("think " + profile.think() + ": " + tooShort);
        }
        String iterations = flowProblem(scenarios, profile);
        if (iterations != null) {
            throw new UsageException("profile " + profile.kind() + ": " + iterations);
        }
    }

    /**
     * Why a flow cannot run under the profile; null when it can. Loops and burst count requests per user, and a
     * flow's user runs iterations of several requests: the flows run under fixed, stages and rate, whose users
     * start one iteration after another (or arrive, one iteration each) until the time is up.
     */
    public static String flowProblem(List<Scenario> scenarios, LoadProfile profile) {
        if (!(profile instanceof LoadProfile.Loops || profile instanceof LoadProfile.Burst)) {
            return null;
        }
        return scenarios.stream().filter(Scenario::isFlow).findFirst().map(s -> "flow " + s.name() + " runs iterations of its steps, and " + profile.kind()
                + " counts requests per user: use fixed, stages or rate").orElse(null);
    }

    /**
     * Why a paired design named by the user cannot hold the profile's think time in its blocks
     * ({@link Design#PAUSES_PER_BLOCK}); null when it can, or when the design was not named (then it gives way, {@link #decided}).
     */
    public static String thinkProblem(LoadProfile profile, Design design) {
        Duration pauses = pausesTooLong(profile, design);
        return pauses == null || !design.named() ? null : "a paired block must last " + Design.PAUSES_PER_BLOCK + " of the longest pause, "
                + pauses.toMillis() + "ms, not " + design.block().toMillis() + "ms; give a longer block or the sequential design";
    }

    /** The block the profile's pauses need, when the paired design's blocks are shorter; null when they hold them. */
    private static Duration pausesTooLong(LoadProfile profile, Design design) {
        Duration pauses = profile.think().max().multipliedBy(Design.PAUSES_PER_BLOCK);
        return design.paired() && profile instanceof LoadProfile.Fixed && pauses.compareTo(design.block()) > 0 ? pauses : null;
    }

    /**
     * The targets in the order of one repeat (1-based): forward on odd repeats, backward on even ones.
     * With plain A B C A B C, a machine that slows down over the session makes C look slower than A by
     * two positions per round; mirrored rounds give every target the same mean position over each pair
     * of repeats, so a linear drift adds spread but no difference.
     */
    public List<TargetSpec> order(int repeat) {
        if (repeat % 2 == 1) {
            return targets;
        }
        List<TargetSpec> backward = new ArrayList<>(targets);
        Collections.reverse(backward);
        return List.copyOf(backward);
    }

    /**
     * Measured in interleaved rounds: a paired design, and a steady load (fixed users or a rate) to measure in blocks; a sweep
     * per cell; or, when the paired design was named, a shape, each block all of it ({@code driver.WholeLoads}).
     */
    public boolean inRounds() {
        return design.paired() && (measuredInRounds(profile) || design.named() && sweep == null);
    }

    /**
     * Refuses fresh JVMs where no shape is measured in rounds: only a whole shape's block can start on a JVM of its own (docs/guide.md,
     * "Shapes in rounds"). Asked once the experiment's design is final.
     */
    public void requireFreshJvms() {
        if (freshJvms && (!inRounds() || measuredInRounds(profile))) {
            throw new UsageException("fresh-jvms: only for a shape (stages, loops or a burst) measured in paired rounds (--design paired)");
        }
    }

    /**
     * The target JVMs whose connections the driver holds open at once, what the open-file limit must hold: in rounds of a steady
     * load every JVM's, open from the first block to the last; else one's, as a whole shape's loads run one at a time, each
     * opening and closing its own ({@code driver.WholeLoads}), and the sequential design measures one target at a time.
     */
    public int connectedJvms() {
        return inRounds() && measuredInRounds(profile) ? targets.size() * sets : 1;
    }

    /**
     * This experiment in the design that measures it, decided here for every door (docs/guide.md, "The two designs").
     * A design named by the user stays: a paired one over a shape measures each block as the whole shape, and
     * what else it cannot run is refused (the driver's agents or rate, pauses longer than its blocks hold). The default,
     * paired, gives way to the sequential design wherever the paired one cannot measure the experiment, and says why
     * ({@link #sequentialBecause}).
     *
     * @param driverCannot why the load driver cannot run interleaved rounds of this profile ({@link DriverChoice#roundsObstacle}); null when it can
     */
    public Experiment decided(String driverCannot) {
        if (design.named() || !design.paired()) {
            return this;
        }
        String need = roundsNeed(driverCannot);
        return need == null ? this : toBuilder().design(Design.fallback(need)).build();
    }

    /** What interleaved rounds of this experiment's paired design need that it lacks; null when it lacks nothing. */
    private String roundsNeed(String driverCannot) {
        if (!measuredInRounds(profile)) {
            return STEADY_LOAD;
        }
        if (driverCannot != null) {
            return driverCannot;
        }
        Duration pauses = pausesTooLong(profile, design);
        return pauses == null ? null : "blocks of " + Design.PAUSES_PER_BLOCK + " of the longest pause, " + pauses.toMillis() + "ms, not "
                + design.block().toMillis() + "ms (--block, block:)";
    }

    /** Why a paired design, named or the default, measures this experiment one target after another; null when it is in rounds or named sequential. */
    public String sequentialBecause() {
        return inRounds() ? null : design.paired() ? STEADY_LOAD : design.fallback();
    }

    /** Whether the paired design can measure the profile in rounds: a steady load, fixed users or a rate, cut into blocks. */
    public static boolean measuredInRounds(LoadProfile profile) {
        return profile instanceof LoadProfile.Fixed || profile instanceof LoadProfile.Rate;
    }

    /**
     * The same experiment, shorter: durations and requests per user times {@code factor} (at least
     * 1 s and 1 request; the idle phase at least 2 s); user counts and think time stay, since
     * concurrency is what is being compared.
     */
    public Experiment scaled(double factor) {
        return toBuilder().profile(scale(profile, factor)).warmup(times(warmup, factor, Duration.ZERO)).cooldown(times(cooldown, factor, Duration.ZERO))
                .sweep(sweep == null ? null : new Sweep(sweep.axes(), times(sweep.cellWarmup(), factor, Duration.ZERO))).idle(times(idle, factor, MIN_IDLE))
                .design(design.paired() ? new Design(design.kind(), design.rounds(), times(design.block(), factor, Duration.ofSeconds(1)), design.leadIn(),
                        design.leadInRounds(), design.named(), null, design.fixedRounds(), design.budget()) : design)
                .build();
    }

    /**
     * The same experiment with its profile's own length times {@code factor}, nothing else (the warmup, the users and the
     * pauses stay): its durations (at least 1 s each), or a loop's or burst's requests per user; a shape fitted into a round of
     * the paired design (docs/guide.md, "Shapes in rounds").
     */
    public Experiment shapeScaled(double factor) {
        return toBuilder().profile(scale(profile, factor)).build();
    }

    private static LoadProfile scale(LoadProfile p, double f) {
        if (p instanceof LoadProfile.Stages) {
            return new LoadProfile.Stages(((LoadProfile.Stages) p).stages().stream()
                    .map(s -> new LoadProfile.Stage(times(s.duration(), f, Duration.ofSeconds(1)), s.users())).toList(), p.think());
        }
        if (p instanceof LoadProfile.Fixed) {
            LoadProfile.Fixed x = (LoadProfile.Fixed) p;
            return new LoadProfile.Fixed(x.users(), times(x.duration(), f, Duration.ofSeconds(1)), x.think());
        }
        if (p instanceof LoadProfile.Loops) {
            LoadProfile.Loops x = (LoadProfile.Loops) p;
            return new LoadProfile.Loops(x.users(), (int) Math.max(1, Math.round(x.requests() * f)), x.think());
        }
        if (p instanceof LoadProfile.Burst) {
            LoadProfile.Burst x = (LoadProfile.Burst) p;
            return new LoadProfile.Burst(x.users(), (int) Math.max(1, Math.round(x.requests() * f)), x.think());
        }
        LoadProfile.Rate x = (LoadProfile.Rate) p;
        return new LoadProfile.Rate(x.rps(), times(x.duration(), f, Duration.ofSeconds(1)), x.maxInFlight());
    }

    private static Duration times(Duration d, double f, Duration min) {
        Duration scaled = Duration.ofMillis(Math.round(d.toMillis() * f));
        return scaled.compareTo(min) < 0 ? min : scaled;
    }

    /** How many JVMs of each target the run starts: its sets when it is measured in rounds, else its repeats. */
    public int jvmsPerTarget() {
        return inRounds() ? sets : repeats;
    }

    public boolean needsDownstream() {
        return scenarios.stream().anyMatch(Scenario::needsDownstream);
    }

    public boolean needsDatabase() {
        return scenarios.stream().anyMatch(Scenario::needsDatabase);
    }

    /** Every field of an experiment, so that a new one is one edit here; {@link #build} checks them as the record does. */
    public static final class Builder {
        private String name;
        private List<TargetSpec> targets;
        private List<Scenario> scenarios;
        private LoadProfile profile;
        private Duration warmup = DEFAULT_WARMUP;
        private Duration cooldown = DEFAULT_COOLDOWN;
        private int sets = 1;
        private int repeats = 1;
        private ResourceLimits limits = ResourceLimits.NONE;
        private Sweep sweep;
        private Duration idle = DEFAULT_IDLE;
        private Design design = Design.SEQUENTIAL;
        private DriverChoice driver = DriverChoice.NONE;
        private boolean freshJvms;

        private Builder(String name, List<TargetSpec> targets, List<Scenario> scenarios, LoadProfile profile) {
            this.name = name;
            this.targets = targets;
            this.scenarios = scenarios;
            this.profile = profile;
        }

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder targets(List<TargetSpec> value) {
            targets = value;
            return this;
        }

        public Builder scenarios(List<Scenario> value) {
            scenarios = value;
            return this;
        }

        public Builder profile(LoadProfile value) {
            profile = value;
            return this;
        }

        public Builder warmup(Duration value) {
            warmup = value;
            return this;
        }

        public Builder cooldown(Duration value) {
            cooldown = value;
            return this;
        }

        public Builder sets(int value) {
            sets = value;
            return this;
        }

        public Builder repeats(int value) {
            repeats = value;
            return this;
        }

        public Builder limits(ResourceLimits value) {
            limits = value;
            return this;
        }

        /** The grid as given: {@link Sweep#check} it against the experiment where it comes from the user. */
        public Builder sweep(Sweep value) {
            sweep = value;
            return this;
        }

        public Builder idle(Duration value) {
            idle = value;
            return this;
        }

        public Builder design(Design value) {
            design = value;
            return this;
        }

        public Builder driver(DriverChoice value) {
            driver = value;
            return this;
        }

        /** A fresh JVM of every target before each of its blocks of a shape after its first ({@link #requireFreshJvms}). */
        public Builder freshJvms(boolean value) {
            freshJvms = value;
            return this;
        }

        public Experiment build() {
            return new Experiment(name, targets, scenarios, profile, warmup, cooldown, sets, repeats, limits, sweep, idle, design, driver, freshJvms);
        }
    }
}

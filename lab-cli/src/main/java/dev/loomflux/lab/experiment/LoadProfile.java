package dev.loomflux.lab.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How load is offered. Closed models (stages, fixed, loops, burst) keep N users each waiting for
 * its response before the next request; the open model (rate) sends on a schedule regardless.
 */
public sealed interface LoadProfile {
    String kind();

    /** Highest concurrency the profile reaches; warmup uses it too. */
    int peakUsers();

    /** How long the measured load lasts by the clock; zero when it ends by a request count (loops, burst). */
    default Duration plannedDuration() {
        return Duration.ZERO;
    }

    /** Each closed-model user's pause between a response and its next request; none for the open model. */
    default Think think() {
        return Think.NONE;
    }

    /** Linear ramps between user counts, as k6 stages do: each stage ramps from the previous target to its own. */
    record Stages(List<Stage> stages, Think think) implements LoadProfile {
        public Stages {
            stages = List.copyOf(stages);
            Objects.requireNonNull(think, "think");
        }

        public Stages(List<Stage> stages) {
            this(stages, Think.NONE);
        }

        @Override
        public String kind() {
            return "stages";
        }

        @Override
        public int peakUsers() {
            return stages.stream().mapToInt(Stage::users).max().orElse(0);
        }

        @Override
        public Duration plannedDuration() {
            return stages.stream().map(Stage::duration).reduce(Duration.ZERO, Duration::plus);
        }
    }

    record Stage(Duration duration, int users) {
    }

    /** N users for a duration ({@code ab -c N -t T}). */
    record Fixed(int users, Duration duration, Think think) implements LoadProfile {
        public Fixed {
            Objects.requireNonNull(think, "think");
        }

        public Fixed(int users, Duration duration) {
            this(users, duration, Think.NONE);
        }

        @Override
        public Duration plannedDuration() {
            return duration;
        }

        @Override
        public String kind() {
            return "fixed";
        }

        @Override
        public int peakUsers() {
            return users;
        }
    }

    /** N users each sending L requests, started over a short ramp (JMeter thread group). */
    record Loops(int users, int requests, Think think) implements LoadProfile {
        public Loops {
            Objects.requireNonNull(think, "think");
        }

        public Loops(int users, int requests) {
            this(users, requests, Think.NONE);
        }

        @Override
        public String kind() {
            return "loops";
        }

        @Override
        public int peakUsers() {
            return users;
        }
    }

    /** N users started at the same instant, each sending L requests (Gatling atOnceUsers). */
    record Burst(int users, int requests, Think think) implements LoadProfile {
        public Burst {
            Objects.requireNonNull(think, "think");
        }

        public Burst(int users, int requests) {
            this(users, requests, Think.NONE);
        }

        @Override
        public String kind() {
            return "burst";
        }

        @Override
        public int peakUsers() {
            return users;
        }
    }

    /** Open model: a constant arrival rate, at most maxInFlight requests in flight (wrk2 style). */
    record Rate(int rps, Duration duration, int maxInFlight) implements LoadProfile {
        @Override
        public Duration plannedDuration() {
            return duration;
        }

        @Override
        public String kind() {
            return "rate";
        }

        @Override
        public int peakUsers() {
            return maxInFlight;
        }
    }
}

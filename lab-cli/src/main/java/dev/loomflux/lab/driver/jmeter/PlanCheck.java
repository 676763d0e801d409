package dev.loomflux.lab.driver.jmeter;

import dev.loomflux.lab.driver.jmeter.PlanTree.Element;
import dev.loomflux.lab.driver.jmeter.PlanTree.ElementKind;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the lab can run a user's plan against each of its targets, and how long the plan runs
 * (docs/scale-out.md, "Your own JMeter plan"). The lab points a plan at a target through the JMeter properties
 * {@link OwnPlan#HOST} and {@link OwnPlan#PORT}, so every HTTP sampler must take its host and port from them, itself
 * or through the HTTP Request Defaults over it (JMeter fills a sampler's empty fields from the innermost defaults), or
 * through a user-defined variable that holds such a reference.
 */
final class PlanCheck {
    /** What the plan cannot do, as one sentence naming the element. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** A sampler whose path is a whole URL: JMeter then ignores its host, port and protocol fields. */
    private static final Pattern URL = Pattern.compile("(?i)(https?)://([^/:]*)(?::([^/]*))?(/.*)?");
    private static final String[] SERVER = {PlanTree.PROTOCOL, PlanTree.DOMAIN, PlanTree.PORT};

    private final Map<String, String> variables = new HashMap<>();
    private int samplers;
    private int loadGroups;
    private boolean ownLength;

    private PlanCheck() {
    }

    /**
     * @param plan the plan's top-level elements
     * @return whether the plan keeps a length of its own: a thread group that ends by its own loop count or duration, or
     *         of a kind other than the plain thread group (its own schedule); false when every thread group loops until
     *         {@code ${__P(duration)}} is over, the length the lab gives each load
     */
    static boolean check(List<Element> plan) throws Refused {
        PlanCheck c = new PlanCheck();
        c.collectVariables(plan);
        c.walk(plan, Map.of());
        if (c.loadGroups == 0) {
            throw new Refused("no thread group: nothing in it would send a request");
        }
        if (c.samplers == 0) {
            throw new Refused("no HTTP Request sampler: the lab measures HTTP requests, and nothing in it sends one");
        }
        return c.ownLength;
    }

    /** User-defined variables apply to the whole plan wherever they are (JMeter reads them all before the threads start). */
    private void collectVariables(List<Element> elements) {
        for (Element e : elements) {
            if (e.kind() == ElementKind.TEST_PLAN || e.kind() == ElementKind.VARIABLES) {
                variables.putAll(e.properties());
            }
            collectVariables(e.children());
        }
    }

    /** @param outer the server fields of the HTTP Request Defaults over these elements, the innermost's where several set one */
    private void walk(List<Element> elements, Map<String, String> outer) throws Refused {
        Map<String, String> defaults = new LinkedHashMap<>(outer);
        elements.stream().filter(e -> e.kind() == ElementKind.HTTP_DEFAULTS).findFirst().ifPresent(d -> {
            for (String key : SERVER) {
                if (!d.property(key).isBlank()) {
                    defaults.put(key, d.property(key));
                }
            }
        });
        for (Element e : elements) {
            switch (e.kind()) {
                case HTTP_SAMPLER -> sampler(e, defaults);
                case THREAD_GROUP -> threadGroup(e);
                case OTHER_THREAD_GROUP -> {
                    loadGroups++;
                    ownLength = true;
                }
                case TRANSACTION -> {
                    if (Boolean.parseBoolean(e.property(PlanTree.PARENT_SAMPLE))) {
                        throw new Refused("transaction controller '" + e.name() + "' generates a parent sample, which holds its requests' samples:"
                                + " the lab reads each request's own sample; untick 'Generate parent sample'");
                    }
                }
                default -> {
                    // Other elements run as JMeter runs them: timers, assertions, extractors, other controllers and samplers.
                }
            }
            walk(e.children(), defaults);
        }
    }

    private void sampler(Element s, Map<String, String> defaults) throws Refused {
        samplers++;
        String path = s.property(PlanTree.PATH).strip();
        Matcher url = URL.matcher(path);
        String protocol;
        String host;
        String port;
        if (url.matches()) {
            protocol = url.group(1);
            host = url.group(2);
            port = Objects.requireNonNullElse(url.group(3), "");
        } else {
            protocol = field(s, PlanTree.PROTOCOL, defaults);
            host = field(s, PlanTree.DOMAIN, defaults);
            port = field(s, PlanTree.PORT, defaults);
        }
        String named = "sampler '" + s.name() + "'";
        if (!protocol.isBlank() && !protocol.equalsIgnoreCase("http")) {
            throw new Refused(named + " speaks " + protocol + ": the lab's targets speak plain HTTP");
        }
        if (host.isBlank()) {
            throw new Refused(named + " names no host, nor do HTTP Request Defaults over it: give it ${__P(" + OwnPlan.HOST
                    + ")}, which the lab sets to each target's");
        }
        if (!reads(host, OwnPlan.HOST)) {
            throw new Refused(named + " sends to host '" + host + "', not ${__P(" + OwnPlan.HOST + ")}: the lab cannot point it at each target");
        }
        if (port.isBlank()) {
            throw new Refused(named + " names no port (JMeter would use 80), nor do HTTP Request Defaults over it: give it ${__P("
                    + OwnPlan.PORT + ")}, which the lab sets to each target's");
        }
        if (!reads(port, OwnPlan.PORT)) {
            throw new Refused(named + " sends to port '" + port + "', not ${__P(" + OwnPlan.PORT + ")}: the lab cannot point it at each target");
        }
    }

    /** The sampler's own field, else the innermost defaults'. */
    private static String field(Element sampler, String key, Map<String, String> defaults) {
        String own = sampler.property(key).strip();
        return own.isEmpty() ? defaults.getOrDefault(key, "").strip() : own;
    }

    /**
     * A plain thread group either runs at the lab's pace (loops forever, for {@code ${__P(duration)}} seconds) or keeps a
     * length of its own; one that loops forever without a duration would never end.
     */
    private void threadGroup(Element g) throws Refused {
        loadGroups++;
        boolean forever = g.property(PlanTree.LOOPS).strip().equals("-1");
        boolean scheduled = Boolean.parseBoolean(g.property(PlanTree.SCHEDULER));
        String duration = g.property(PlanTree.DURATION).strip();
        if (forever && (!scheduled || duration.isEmpty())) {
            throw new Refused("thread group '" + g.name() + "' loops forever and has no duration, so it would never end: give it ${__P("
                    + OwnPlan.DURATION + ")} as its duration, which the lab sets to each load's length");
        }
        if (!(forever && reads(duration, OwnPlan.DURATION))) {
            ownLength = true;
        }
    }

    /** {@code ${__P(name)}}, {@code ${__P(name,default)}}, {@code ${__property(name)}}, or a user-defined variable that holds one. */
    private boolean reads(String value, String property) {
        if (reference(property).matcher(value).matches()) {
            return true;
        }
        Matcher variable = Pattern.compile("\\$\\{([^}(]+)}").matcher(value);
        return variable.matches() && variables.containsKey(variable.group(1))
                && reference(property).matcher(variables.get(variable.group(1)).strip()).matches();
    }

    private static Pattern reference(String property) {
        return Pattern.compile("\\$\\{__(?:P|property)\\(\\s*" + Pattern.quote(property) + "\\s*(?:,[^)]*)?\\)}");
    }
}

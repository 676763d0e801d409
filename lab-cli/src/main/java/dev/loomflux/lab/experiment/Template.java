package dev.loomflux.lab.experiment;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A step's path, header or body with {@code ${name}} where a user's variable goes: a data value or one
 * an earlier step extracted. Hyperfoil's patterns and JMeter's variables both write a reference so, and
 * both pass every other character on as it is, so a template reaches either driver unchanged. Only
 * references the lab can check are allowed: any other {@code ${} (an unclosed one, a JMeter function,
 * a Hyperfoil format) is refused, since one driver would read it and the other would not.
 */
public final class Template {
    /** A variable's name: a letter, then letters, digits and '_'. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,39}");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}?");

    private Template() {
    }

    /**
     * The variables a template uses, in order of first use.
     *
     * @throws IllegalArgumentException naming the first reference that is not {@code ${name}}
     */
    public static Set<String> variables(String template) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = REFERENCE.matcher(template);
        while (m.find()) {
            String name = m.group(1);
            if (!m.group().endsWith("}")) {
                throw new IllegalArgumentException("'" + m.group() + "' is not closed: write ${name}");
            }
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + m.group() + "' is not a variable: write ${name}, a letter then letters, digits or '_'");
            }
            out.add(name);
        }
        return out;
    }
}

package dev.loomflux.lab.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetsTest {
    @Test
    void builtInsShareOneJarForPlatformAndVirtualThreads() {
        Targets t = new Targets();
        assertEquals(App.MVC, t.get("mvc-vt", "x").app());
        assertTrue(t.get("mvc-vt", "x").virtualThreads());
        assertEquals(false, t.get("mvc", "x").virtualThreads());
        assertEquals(App.WEBFLUX, t.get("webflux", "x").app());
    }

    @Test
    void defineLayersPropertiesAndFlagsOnABase() {
        Targets t = new Targets();
        TargetSpec spec = t.define("mvc-vt-zgc=mvc-vt,server.tomcat.threads.max=10,-XX:+UseZGC");
        assertEquals(App.MVC, spec.app());
        assertEquals(Map.of("spring.threads.virtual.enabled", "true", "server.tomcat.threads.max", "10"), spec.properties());
        assertEquals(List.of("-XX:+UseZGC"), spec.jvmArgs());
        assertEquals(spec, t.select(List.of("mvc-vt-zgc"), "--targets").get(0));
    }

    @Test
    void badDefinitionsNameTheProblem() {
        Targets t = new Targets();
        assertEquals("--define mvc-10=tomcat: unknown target 'tomcat' (known: mvc, mvc-vt, webflux, webflux-vt)",
                assertThrows(UsageException.class, () -> t.define("mvc-10=tomcat")).getMessage());
        assertTrue(assertThrows(UsageException.class, () -> t.define("mvc-10=mvc,threads"))
                .getMessage().contains("'threads' is neither key=value"));
        assertTrue(assertThrows(UsageException.class, () -> t.define("Bad Name=mvc"))
                .getMessage().contains("must be lowercase"));
        assertTrue(assertThrows(UsageException.class, () -> t.define("mvc=mvc"))
                .getMessage().contains("already defined"));
        assertTrue(assertThrows(UsageException.class, () -> t.select(List.of("mvc", "mvc"), "--targets"))
                .getMessage().contains("listed twice"));
    }
}

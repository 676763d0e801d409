package dev.loomflux.lab.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdkLocatorTest {
    @TempDir
    Path dir;

    private Path fakeJdk(String name, String version) throws IOException {
        Path home = dir.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("bin/java"), "");
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    @Test
    void picksTheNewestJdkThatRunsVirtualThreads() throws IOException {
        fakeJdk("jdk-17", "17.0.15");
        fakeJdk("jdk-21", "21.0.8");
        fakeJdk("jdk-25", "25.0.3");
        Jdk jdk = new JdkLocator(Map.of(), List.of(dir)).locate(null);
        assertEquals(25, jdk.feature());
        assertEquals(dir.resolve("jdk-25"), jdk.home());
    }

    @Test
    void skipsATooOldJavaHomeAndSaysWhatItSearched() throws IOException {
        Path old = fakeJdk("jdk-17", "17.0.15");
        UsageException e = assertThrows(UsageException.class,
                () -> new JdkLocator(Map.of("JAVA_HOME", old.toString()), List.of(dir)).locate(null));
        assertTrue(e.getMessage().contains("JAVA_HOME=" + old + " (JDK 17.0.15)"), e.getMessage());
        assertTrue(e.getMessage().contains("--java"), e.getMessage());
    }

    @Test
    void explicitChoiceWinsAndMustFit() throws IOException {
        fakeJdk("jdk-25", "25.0.3");
        Path jdk21 = fakeJdk("jdk-21", "21.0.8");
        Path jdk17 = fakeJdk("jdk-17", "17.0.15");
        JdkLocator locator = new JdkLocator(Map.of("LOOMFLUX_JAVA", jdk17.toString()), List.of(dir));
        assertEquals(21, locator.locate(jdk21.resolve("bin/java").toString()).feature());
        UsageException e = assertThrows(UsageException.class, () -> locator.locate(null));
        assertTrue(e.getMessage().startsWith("LOOMFLUX_JAVA=" + jdk17 + ": JDK 17.0.15 is too old"), e.getMessage());
    }

    @Test
    void findsTheRealJdkOnThisMachine() {
        Jdk jdk = JdkLocator.system().locate(null);
        assertTrue(jdk.feature() >= 21, jdk.toString());
        assertTrue(Files.isExecutable(jdk.java()), jdk.java().toString());
    }
}

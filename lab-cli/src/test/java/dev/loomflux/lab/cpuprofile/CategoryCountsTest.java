package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CategoryCountsTest {
    private static final CollapsedStacks STACKS = new CollapsedStacks(new TreeMap<>(Map.of(
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun;dev.loomflux.targets.mvc.ItemController.get", 30L,
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun;com.fasterxml.jackson.core.JsonGenerator.writeString", 15L,
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun;com.fasterxml.jackson.core.JsonParser.nextToken", 5L,
            "java.lang.Thread.run;org.apache.tomcat.util.net.NioEndpoint.serviceSocket", 10L)));

    @Test
    void samplesAndSharesPerCategory() {
        CategoryCounts counts = CategoryCounts.of(STACKS, CategoryRules.lab());
        assertEquals(60, counts.total());
        assertEquals(30L, counts.samples().get(Category.APP));
        assertEquals(20L, counts.samples().get(Category.JSON));
        assertEquals(10L, counts.samples().get(Category.SERVER_IO));
        assertEquals(0L, counts.samples().get(Category.DB), "every category is there");
        assertEquals(0.5, counts.shares().get(Category.APP), 1e-12);
        assertEquals(1.0 / 3, counts.shares().get(Category.JSON), 1e-12);
        assertEquals(1.0, counts.shares().values().stream().mapToDouble(Double::doubleValue).sum(), 1e-12);
    }

    @Test
    void microsecondsPerRequestAreTheSharesOfTheCpuPerRequest() {
        Map<Category, Double> us = CategoryCounts.of(STACKS, CategoryRules.lab()).microsPerRequest(240);
        assertEquals(120, us.get(Category.APP), 1e-9);
        assertEquals(80, us.get(Category.JSON), 1e-9);
        assertEquals(40, us.get(Category.SERVER_IO), 1e-9);
        assertEquals(0, us.get(Category.OTHER), 1e-9);
    }

    @Test
    void noSamplesShareNothing() {
        CategoryCounts none = CategoryCounts.of(new CollapsedStacks(new TreeMap<>()), CategoryRules.lab());
        assertEquals(0, none.total());
        assertTrue(none.shares().isEmpty());
        assertTrue(none.microsPerRequest(240).isEmpty());
    }
}

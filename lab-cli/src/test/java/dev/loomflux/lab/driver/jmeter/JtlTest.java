package dev.loomflux.lab.driver.jmeter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JMeter's CSV results read as it writes them: whole rows only, quoted commas kept. */
class JtlTest {
    private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,"
            + "grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

    @Test
    void rowsAreReadAsTheyCompleteAndAHalfWrittenOneWaits(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("out.jtl");
        Jtl jtl = new Jtl(file);
        assertTrue(jtl.next().isEmpty(), "no file yet");
        Files.writeString(file, HEADER
                + "1795707328267,206,request,200,,fixed 1-1,text,true,,127,127,8,8,http://127.0.0.1:18282/plaintext,205,0,24\n"
                + "1795707328300,16,request,Non HTTP response code: java.net.SocketException,\"Non HTTP response message: Socket closed, reset\",rate 1-9");
        List<Jtl.Sample> first = jtl.next();
        assertEquals(1, first.size());
        assertEquals(new Jtl.Sample(1795707328267L, 206, "200", true, "fixed 1-1", 127, 127, 8, 24, "", "request", "", false), first.get(0));
        Files.writeString(file, "79,text,false,\"a, b\",3130,0,35,35,http://127.0.0.1:18282/plaintext,0,0,0\n", StandardOpenOption.APPEND);
        List<Jtl.Sample> second = jtl.next();
        assertEquals(1, second.size());
        Jtl.Sample failed = second.get(0);
        assertFalse(failed.success());
        assertEquals("rate 1-979", failed.thread());
        assertEquals("a, b", failed.failure());
        assertEquals(1795707328316L, failed.endMs());
        assertTrue(jtl.next().isEmpty(), "nothing new");
        assertEquals(2, Jtl.readAll(file).size());
    }

    @Test
    void aResponseThatClosedItsConnectionIsMarked(@TempDir Path dir) throws Exception {
        // As JMeter 5.6.3 wrote them with sample_variables=loomflux_closed, the variable's name quoted.
        Path file = dir.resolve("out.jtl");
        Files.writeString(file, HEADER.strip() + ",\"loomflux_closed\"\n"
                + "1795782555366,137,request,200,,fixed 1-8,text,true,,127,127,20,20,http://127.0.0.1:18431/plaintext,133,0,48,0\n"
                + "1795782555371,132,request,200,,fixed 1-18,text,true,,146,127,20,20,http://127.0.0.1:18431/plaintext,129,0,0,1\n");
        List<Jtl.Sample> rows = Jtl.readAll(file);
        assertFalse(rows.get(0).closed());
        assertTrue(rows.get(1).closed());
        assertEquals(List.of(0L, 48L), List.of(rows.get(1).connectMs(), rows.get(0).connectMs()), "the columns before it are read as before");
    }

    @Test
    void aFailureMessageOverSeveralLinesStaysInItsRow(@TempDir Path dir) throws Exception {
        // As JMeter 5.6.3 wrote a step whose status assertion failed: its message quoted, over seven lines.
        String failed = "1795785851036,4,gone-read,404,Not Found,fixed 1-1,,false,\"Test failed: code expected to equal /\n\n****** received  : [[[404]]]\n\n"
                + "****** comparison: [[[200]]]\n\n/\",45,125,2,2,http://127.0.0.1:42359/items/0,4,0,0,0\n";
        String transaction = "1795785851035,5,gone,,\"Number of samples in transaction : 1, number of failing samples : 1\",fixed 1-1,,false,,45,125,2,2,null,4,0,0,0\n";
        Path file = dir.resolve("out.jtl");
        Jtl jtl = new Jtl(file);
        int cut = failed.indexOf("****** comparison");
        Files.writeString(file, HEADER.strip() + ",\"loomflux_closed\"\n" + failed.substring(0, cut));
        assertTrue(jtl.next().isEmpty(), "the row's line breaks so far are inside its quotes");
        Files.writeString(file, failed.substring(cut) + transaction, StandardOpenOption.APPEND);
        List<Jtl.Sample> rows = jtl.next();
        assertEquals(List.of("gone-read", "gone"), rows.stream().map(Jtl.Sample::label).toList());
        assertTrue(rows.get(0).failure().endsWith("****** comparison: [[[200]]]\n\n/"), rows.get(0).failure());
        assertEquals("", rows.get(1).code(), "a failed transaction has no status");
        assertFalse(rows.get(1).success());
    }
}

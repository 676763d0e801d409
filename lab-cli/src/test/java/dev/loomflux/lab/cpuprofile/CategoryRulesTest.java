package dev.loomflux.lab.cpuprofile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomflux.lab.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CategoryRulesTest {
    private static final String TOMCAT = "java.lang.Thread.run;org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run;"
            + "org.apache.coyote.http11.Http11Processor.service;org.springframework.web.servlet.DispatcherServlet.doDispatch;"
            + "dev.loomflux.targets.mvc.ItemController.get";

    @TempDir
    Path dir;

    @Test
    void theLeafMostFrameARuleNamesDecidesAndTheJdksGenericFramesAreSkipped() {
        CategoryRules rules = CategoryRules.lab();
        assertEquals(Category.APP, rules.classify(TOMCAT));
        assertEquals(Category.JSON, rules.classify(TOMCAT + ";com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes;"
                + "java.lang.String.getBytes;java.lang.StringCoding.encodeUTF8"));
        assertEquals(Category.DISPATCH, rules.classify(TOMCAT.substring(0, TOMCAT.lastIndexOf(';')) + ";java.util.HashMap.get"));
        assertEquals(Category.SERVER_IO, rules.classify("java.lang.Thread.run;io.netty.channel.nio.NioEventLoop.run;sun.nio.ch.EPoll.wait"));
        assertEquals(Category.OTHER, rules.classify("java.lang.Thread.run;java.util.concurrent.ThreadPoolExecutor.runWorker;java.lang.String.hashCode"));
        assertEquals(Category.OTHER, rules.classify(JfrSamples.TRUNCATED + ";java.lang.String.hashCode"));
    }

    @Test
    void theJdkCountsWhereARuleNamesIt() {
        CategoryRules rules = CategoryRules.lab();
        assertEquals(Category.VT_SCHEDULING, rules.classify("java.lang.VirtualThread.run;dev.loomflux.targets.mvc.ItemController.get;"
                + "java.util.concurrent.locks.LockSupport.park;java.lang.VirtualThread.park;jdk.internal.vm.Continuation.yield"));
        assertEquals(Category.HTTP_CLIENT, rules.classify(TOMCAT + ";jdk.internal.net.http.HttpClientImpl.send;java.lang.Object.wait"));
        assertEquals(Category.VT_SCHEDULING, rules.classify("java.lang.Thread.run;java.util.concurrent.locks.LockSupport.parkNanos"));
        assertEquals(Category.OTHER, rules.classify("java.lang.Thread.run;java.util.concurrent.locks.LockSupport.getBlocker"), "only park and unpark");
    }

    /**
     * async-profiler's stacks, frames named as {@link JfrSamples#frameName} names them: the JVM's own threads by their HotSpot
     * frames, and a system call (libc, then the kernel) under Java code where that code counts.
     */
    @Test
    void nativeFramesNameTheJvmsThreadsAndASystemCallCountsWhereItsJavaCallerDoes() {
        CategoryRules rules = CategoryRules.lab();
        String thread = "clone3;start_thread;thread_native_entry;Thread::call_run;";
        assertEquals(Category.JIT, rules.classify(thread + "JavaThread::thread_main_inner;CompileBroker::compiler_thread_loop;"
                + "CompileBroker::invoke_compiler_on_method;C2Compiler::compile_method;Compile::Compile;PhaseIdealLoop::build_loop_early"));
        assertEquals(Category.JIT, rules.classify(thread + "CompileBroker::invoke_compiler_on_method;G1BarrierSetC2::post_barrier"),
                "C2 compiling G1's barrier is compiling");
        assertEquals(Category.GC, rules.classify(thread + "WorkerThread::run;G1EvacuateRegionsTask::work;G1ParScanThreadState::trim_queue;"
                + "__memmove_avx_unaligned_erms"), "a libc leaf under G1's work");
        assertEquals(Category.GC, rules.classify(thread + "VMThread::run;VMThread::evaluate_operation;VM_G1CollectForAllocation::doit;"
                + "G1CollectedHeap::do_collection_pause_at_safepoint"));
        assertEquals(Category.GC, rules.classify(thread + "ConcurrentGCThread::run;G1ConcurrentRefineThread::run_service;os::PlatformMonitor::wait"));
        assertEquals(Category.SERVER_IO, rules.classify(TOMCAT.substring(0, TOMCAT.indexOf(";org.springframework")) + ";sun.nio.ch.SocketDispatcher.write0;"
                + "write;entry_SYSCALL_64_after_hwframe_[k];do_syscall_64_[k];tcp_sendmsg_[k]"), "a socket write under Tomcat");
        assertEquals(Category.OTHER, rules.classify(thread + "VMThread::run;VMThread::wait_for_operation;do_syscall_64_[k];schedule_[k]"));
    }

    @Test
    void aSpecificRuleComesBeforeTheGeneralOneItWouldLoseTo() {
        CategoryRules rules = CategoryRules.lab();
        assertEquals(Category.HTTP_CLIENT, rules.classify(TOMCAT + ";org.springframework.web.client.DefaultRestClient.retrieve"));
        assertEquals(Category.HTTP_CLIENT, rules.classify("reactor.netty.http.client.HttpClientConnect$HttpObserver.onStateChange"));
        assertEquals(Category.SERVER_IO, rules.classify("reactor.netty.http.server.HttpServerOperations.onInboundNext"));
    }

    @Test
    void aUsersRulesComeFirstAndMayClaimAPackageTheLabNames() throws Exception {
        Path mine = Files.writeString(dir.resolve("mine.tsv"), "# my service\napp\tcom.example.shop\n\napp\torg.springframework.web.client\n");
        CategoryRules rules = CategoryRules.withUserFile(mine);
        assertEquals(Category.APP, rules.classify(TOMCAT + ";com.example.shop.Cart.total;java.math.BigDecimal.add"));
        assertEquals(Category.APP, rules.classify(TOMCAT + ";org.springframework.web.client.DefaultRestClient.retrieve"));
        assertEquals(Category.JSON, rules.classify(TOMCAT + ";com.fasterxml.jackson.core.json.UTF8JsonGenerator.writeString"));
    }

    @Test
    void aBadLineIsRefusedInOneLineNamingFileAndLine() throws Exception {
        assertEquals(path("a.tsv") + ": line 3: expected CATEGORY<TAB>PREFIX, got 'app com.example'",
                refusal("a.tsv", "# mine\napp\tcom.example.shop\napp com.example\n"));
        assertEquals(path("b.tsv") + ": line 1: expected CATEGORY<TAB>PREFIX, got 'app<TAB>com.example<TAB>x'", refusal("b.tsv", "app\tcom.example\tx\n"));
        assertEquals(path("c.tsv") + ": line 2: unknown category 'cache' (one of server-io, dispatch, reactor, vt-scheduling, json, db, http-client, app, gc, jit, other)",
                refusal("c.tsv", "app\tcom.example\ncache\tcom.github.benmanes.caffeine\n"));
        assertEquals(path("d.tsv") + ": line 2: prefix com.example.shop can never match: line 1's prefix com.example comes first and covers it",
                refusal("d.tsv", "app\tcom.example\ndb\tcom.example.shop\n"));
    }

    private Path path(String name) {
        return dir.resolve(name);
    }

    private String refusal(String name, String text) throws Exception {
        Path file = Files.writeString(path(name), text);
        String message = assertThrows(UsageException.class, () -> CategoryRules.withUserFile(file)).getMessage();
        assertEquals(1, message.lines().count(), message);
        return message;
    }
}

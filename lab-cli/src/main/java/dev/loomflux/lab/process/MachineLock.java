package dev.loomflux.lab.process;

import dev.loomflux.lab.LabException;
import dev.loomflux.lab.UsageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * One lab per machine: two labs at once pinned their targets to the same CPU and measured 1,279 and
 * 4,492 requests/s where one alone measures about 45,000. An OS file lock on {@link #FILE} (in the
 * system temp directory, so every checkout and every user shares it) is held from before anything
 * starts until the run's end; the kernel releases it when the lab dies, however it dies. The file
 * holds who has the machine, for the one waiting.
 */
public final class MachineLock implements AutoCloseable {
    public static final Path FILE = Path.of(System.getProperty("java.io.tmpdir"), "loomflux-lab.lock");
    /**
     * The JVM's, not a lab's, so static on purpose (the one static mutable field outside the entry point): file locks
     * are held on behalf of the whole JVM ({@link FileLock}; a second lock on the file from the same JVM throws instead
     * of waiting), so labs that share one (tests, each with its own {@link LabProcesses}) must queue on one permit.
     */
    private static final Semaphore IN_THIS_JVM = new Semaphore(1);

    private final FileChannel channel;
    private final FileLock lock;
    private final String since = LocalTime.now().truncatedTo(ChronoUnit.SECONDS).toString();

    private MachineLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the machine for {@code what} (e.g. "./lab run"), waiting for the lab that holds it unless {@code wait} is false.
     *
     * @param say told, in one line, whom this lab waits for
     * @throws UsageException when another lab holds the machine and {@code wait} is false
     * @see LabProcesses#takeMachine
     */
    static MachineLock acquire(String what, boolean wait, Consumer<String> say) {
        boolean ours = IN_THIS_JVM.tryAcquire();
        FileChannel channel = open();
        try {
            FileLock lock = ours ? channel.tryLock() : null;
            if (lock == null) {
                String holder = holder(channel);
                if (!wait) {
                    throw new UsageException("another lab is measuring on this machine: " + holder
                            + "; --no-wait refuses instead of waiting (one lab at a time: two share the CPUs and both measure each other)");
                }
                say.accept("waiting for the machine: " + holder + " holds it (one lab at a time; --no-wait to refuse instead)");
                if (!ours) {
                    IN_THIS_JVM.acquireUninterruptibly();
                    ours = true;
                }
                lock = channel.lock();
            }
            MachineLock machine = new MachineLock(channel, lock);
            machine.write(what);
            return machine;
        } catch (IOException | RuntimeException e) {
            close(channel);
            if (ours) {
                IN_THIS_JVM.release();
            }
            throw e instanceof IOException ? new LabException("cannot lock " + FILE + ": " + e.getMessage(), e) : (RuntimeException) e;
        }
    }

    /** Says what holds the machine now that it is known, e.g. the run id; nothing once released. */
    void describe(String what) {
        if (channel.isOpen()) {
            write(what);
        }
    }

    private static FileChannel open() {
        try {
            boolean created = !Files.exists(FILE);
            FileChannel channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            if (created) {
                try {
                    // Another user's lab on this machine must be able to lock it too.
                    Files.setPosixFilePermissions(FILE, PosixFilePermissions.fromString("rw-rw-rw-"));
                } catch (IOException | UnsupportedOperationException e) {
                    // Not POSIX, or another user made it meanwhile: it still works for this user.
                }
            }
            return channel;
        } catch (IOException e) {
            throw new LabException("cannot open the machine's lab lock " + FILE + ": " + e.getMessage()
                    + " (one lab at a time per machine; remove the file if no lab runs)", e);
        }
    }

    private static String holder(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(512);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "a lab that has not said which run it is" : text;
    }

    private void write(String what) {
        String text = what + " (pid " + ProcessHandle.current().pid() + ", since " + since + ")\n";
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            // Only the waiting lab's message is the poorer for it.
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // Closing the channel releases it too.
        }
        close(channel);
        IN_THIS_JVM.release();
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing held any more.
        }
    }
}

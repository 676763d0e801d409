package dev.loomflux.jmeter;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.samplers.SampleEvent;

/**
 * The samples an agent sends the controller in one call (RemoteSampleListener.processBatch). In memory a plain list
 * of events; over the wire not the list but its {@link SerialForm}, {@link BatchCodec}'s compact bytes, from which
 * the controller rebuilds events its ResultCollector writes the same rows of. Java's own form of an ArrayList of
 * events costs kilobytes a sample: every call (RMI starts a new stream each) describes SampleResult's classes again,
 * and every string travels in full.
 */
final class SampleBatch extends ArrayList<SampleEvent> {
    @Serial
    private static final long serialVersionUID = 1L;

    SampleBatch() {
    }

    @Serial
    private Object writeReplace() {
        return new SerialForm(this);
    }

    /** Only the serial form makes a batch: a stream that holds the list itself was not written here. */
    @Serial
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a SampleBatch travels as its SerialForm");
    }

    /** The batch as it travels; its serialVersionUID is the version of {@link BatchCodec}'s format. */
    private static final class SerialForm implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        private transient List<SampleEvent> events;

        SerialForm(List<SampleEvent> events) {
            this.events = events;
        }

        @Serial
        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            BatchCodec.write(events, out);
        }

        @Serial
        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            events = BatchCodec.read(in);
        }

        @Serial
        private Object readResolve() {
            return events;
        }
    }
}

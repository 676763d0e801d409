package dev.loomflux.downstream;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Items in memory, as the targets' items API answers for them: create, read, update, delete; counted for /stats/items. */
final class Items {
    /** What to answer: the status, a {@code Location} (or null) and a JSON body (or null for none). */
    record Answer(HttpResponseStatus status, String location, String body) {
    }

    private final AtomicLong lastId = new AtomicLong();
    private final Set<Long> live = ConcurrentHashMap.newKeySet();
    private final LongAdder created = new LongAdder();
    private final LongAdder read = new LongAdder();
    private final LongAdder updated = new LongAdder();
    private final LongAdder deleted = new LongAdder();
    private final LongAdder notFound = new LongAdder();

    /** @param path {@code /items} or {@code /items/N} */
    Answer answer(HttpMethod method, String path) {
        if (path.equals("/items")) {
            if (!HttpMethod.POST.equals(method)) {
                return new Answer(HttpResponseStatus.METHOD_NOT_ALLOWED, null, null);
            }
            long id = lastId.incrementAndGet();
            live.add(id);
            created.increment();
            return new Answer(HttpResponseStatus.CREATED, "/items/" + id, "{\"id\":" + id + "}");
        }
        long id;
        try {
            id = Long.parseLong(path.substring("/items/".length()));
        } catch (NumberFormatException e) {
            return new Answer(HttpResponseStatus.BAD_REQUEST, null, null);
        }
        boolean there = HttpMethod.DELETE.equals(method) ? live.remove(id) : live.contains(id);
        if (!there) {
            notFound.increment();
            return new Answer(HttpResponseStatus.NOT_FOUND, null, null);
        }
        if (HttpMethod.GET.equals(method)) {
            read.increment();
            return new Answer(HttpResponseStatus.OK, null, "{\"id\":" + id + "}");
        }
        if (HttpMethod.PUT.equals(method)) {
            updated.increment();
            return new Answer(HttpResponseStatus.OK, null, "{\"id\":" + id + "}");
        }
        if (HttpMethod.DELETE.equals(method)) {
            deleted.increment();
            return new Answer(HttpResponseStatus.NO_CONTENT, null, null);
        }
        return new Answer(HttpResponseStatus.METHOD_NOT_ALLOWED, null, null);
    }

    /** The counts as JSON members, for /stats/items. */
    String stats() {
        return "\"created\":" + created.sum() + ",\"read\":" + read.sum() + ",\"updated\":" + updated.sum() + ",\"deleted\":" + deleted.sum()
                + ",\"notFound\":" + notFound.sum();
    }
}

package dev.loomflux.targets.webflux;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.ItemFields;
import dev.loomflux.targets.ItemNotFoundException;
import io.r2dbc.spi.Readable;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Table item over R2DBC and r2dbc-pool, never blocking the event loop. Each write is a transaction of
 * its own through Boot's TransactionalOperator: the connection is held from BEGIN to COMMIT.
 */
@Component
class WebfluxItemTable {
    private final DatabaseClient db;
    private final TransactionalOperator tx;

    WebfluxItemTable(DatabaseClient db, TransactionalOperator tx) {
        this.db = db;
        this.tx = tx;
    }

    Mono<Api.ItemsPage> page(int page, int size) {
        return db.sql(Api.ITEMS_SQL)
                .bind(0, (long) size)
                .bind(1, Api.offset(page, size))
                .map(WebfluxItemTable::item)
                .all()
                .collectList()
                .map(items -> new Api.ItemsPage(page, size, items));
    }

    Mono<Api.Item> one(long id) {
        return db.sql(Api.ITEM_SQL).bind(0, id).map(WebfluxItemTable::item).one().switchIfEmpty(Mono.error(() -> new ItemNotFoundException(id)));
    }

    Mono<Api.Item> create(ItemFields fields) {
        return db.sql(Api.INSERT_SQL).bind(0, fields.name()).bind(1, fields.priceCents()).map(WebfluxItemTable::item).one().as(tx::transactional);
    }

    Mono<Api.Item> update(long id, ItemFields fields) {
        return db.sql(Api.UPDATE_SQL).bind(0, fields.name()).bind(1, fields.priceCents()).bind(2, id).map(WebfluxItemTable::item).one()
                .as(tx::transactional)
                .switchIfEmpty(Mono.error(() -> new ItemNotFoundException(id)));
    }

    Mono<Void> delete(long id) {
        return db.sql(Api.DELETE_SQL).bind(0, id).fetch().rowsUpdated()
                .as(tx::transactional)
                .flatMap(deleted -> deleted == 0 ? Mono.error(new ItemNotFoundException(id)) : Mono.empty());
    }

    private static Api.Item item(Readable row) {
        return new Api.Item(row.get("id", Long.class), row.get("name", String.class), row.get("price_cents", Long.class));
    }
}

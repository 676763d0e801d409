package dev.loomflux.targets.mvc;

import dev.loomflux.targets.Api;
import dev.loomflux.targets.ItemFields;
import dev.loomflux.targets.ItemNotFoundException;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Table item over JDBC and HikariCP, in blocking style on every variant of this jar (mvc, mvc-vt, and
 * webflux-vt, where Boot runs the controller on a virtual thread). Each write is a transaction of its
 * own through Boot's TransactionTemplate: the connection is held from BEGIN to COMMIT.
 */
@Component
class MvcItemTable {
    private final JdbcClient jdbc;
    private final TransactionTemplate tx;

    MvcItemTable(JdbcClient jdbc, TransactionTemplate tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    Api.ItemsPage page(int page, int size) {
        return new Api.ItemsPage(page, size, jdbc.sql(Api.ITEMS_SQL_JDBC).params(size, Api.offset(page, size)).query(MvcItemTable::item).list());
    }

    Api.Item one(long id) {
        return jdbc.sql(Api.ITEM_SQL_JDBC).params(id).query(MvcItemTable::item).optional().orElseThrow(() -> new ItemNotFoundException(id));
    }

    Api.Item create(ItemFields fields) {
        return tx.execute(status -> jdbc.sql(Api.INSERT_SQL_JDBC).params(fields.name(), fields.priceCents()).query(MvcItemTable::item).single());
    }

    Api.Item update(long id, ItemFields fields) {
        return tx.execute(status -> jdbc.sql(Api.UPDATE_SQL_JDBC).params(fields.name(), fields.priceCents(), id).query(MvcItemTable::item).optional())
                .orElseThrow(() -> new ItemNotFoundException(id));
    }

    void delete(long id) {
        if (tx.execute(status -> jdbc.sql(Api.DELETE_SQL_JDBC).params(id).update()) == 0) {
            throw new ItemNotFoundException(id);
        }
    }

    private static Api.Item item(ResultSet rs, int row) throws SQLException {
        return new Api.Item(rs.getLong(1), rs.getString(2), rs.getLong(3));
    }
}

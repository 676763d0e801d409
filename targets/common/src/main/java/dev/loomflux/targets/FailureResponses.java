package dev.loomflux.targets;

import java.nio.charset.StandardCharsets;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ServerWebInputException;

/**
 * Maps failures to the statuses of docs/api.md, always as one line of text/plain, on MVC and WebFlux
 * alike (on WebFlux whether thrown by a handler or signalled by the Mono it returned). The content
 * type is set on the response so it holds whatever the request's Accept header asked for. Each
 * target's advice adds the downstream client's failure, a type of its own stack, as a 502.
 */
public abstract class FailureResponses {
    private static final MediaType TEXT_PLAIN_UTF8 = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

    @ExceptionHandler(BadParameterException.class)
    public ResponseEntity<String> badParameter(BadParameterException e) {
        return text(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    /**
     * A body that is not JSON, or JSON but not an object: MVC cannot read it, WebFlux cannot decode it
     * (the only input WebFlux decodes here, every parameter being an optional string).
     */
    @ExceptionHandler({HttpMessageNotReadableException.class, ServerWebInputException.class})
    public ResponseEntity<String> unreadableBody() {
        return text(HttpStatus.BAD_REQUEST, ItemFields.NOT_AN_OBJECT);
    }

    @ExceptionHandler(ItemNotFoundException.class)
    public ResponseEntity<String> notFound(ItemNotFoundException e) {
        return text(HttpStatus.NOT_FOUND, e.getMessage());
    }

    /** JdbcClient and R2DBC's DatabaseClient both translate every error, pool acquire timeouts included, into this. */
    @ExceptionHandler(DataAccessException.class)
    public ResponseEntity<String> databaseFailed(DataAccessException e) {
        return text(HttpStatus.SERVICE_UNAVAILABLE, "database unavailable: " + rootCause(e));
    }

    protected static ResponseEntity<String> badGateway(Exception e) {
        return text(HttpStatus.BAD_GATEWAY, "downstream call failed: " + rootCause(e));
    }

    private static String rootCause(Exception e) {
        return NestedExceptionUtils.getMostSpecificCause(e).toString().replaceAll("\\s+", " ");
    }

    private static ResponseEntity<String> text(HttpStatus status, String message) {
        return ResponseEntity.status(status).contentType(TEXT_PLAIN_UTF8).body(message);
    }
}

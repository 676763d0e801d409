package dev.loomflux.targets.webflux;

import dev.loomflux.targets.BadParameterException;
import java.nio.charset.StandardCharsets;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.function.client.WebClientException;

/**
 * Maps failures to the statuses of docs/api.md, always as one line of text/plain, whether they
 * were thrown by a handler or signalled by the Mono it returned. The content type is set on the
 * response so it holds whatever the request's Accept header asked for.
 */
@RestControllerAdvice
class ErrorResponses {
    private static final MediaType TEXT_PLAIN_UTF8 = new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);

    @ExceptionHandler(BadParameterException.class)
    ResponseEntity<String> badParameter(BadParameterException e) {
        return text(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    // WebClient wraps connect, pool-acquire and response timeouts in WebClientRequestException.
    @ExceptionHandler(WebClientException.class)
    ResponseEntity<String> downstreamFailed(WebClientException e) {
        return text(HttpStatus.BAD_GATEWAY, "downstream call failed: " + rootCause(e));
    }

    // DatabaseClient translates every R2DBC error, pool acquire timeouts included, into DataAccessException.
    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<String> databaseFailed(DataAccessException e) {
        return text(HttpStatus.SERVICE_UNAVAILABLE, "database unavailable: " + rootCause(e));
    }

    private static String rootCause(Exception e) {
        return NestedExceptionUtils.getMostSpecificCause(e).toString().replaceAll("\\s+", " ");
    }

    private static ResponseEntity<String> text(HttpStatus status, String message) {
        return ResponseEntity.status(status).contentType(TEXT_PLAIN_UTF8).body(message);
    }
}

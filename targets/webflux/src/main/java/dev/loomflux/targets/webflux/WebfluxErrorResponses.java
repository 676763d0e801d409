package dev.loomflux.targets.webflux;

import dev.loomflux.targets.FailureResponses;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.function.client.WebClientException;

/** The shared failure statuses, and WebClient's failure as 502. */
@RestControllerAdvice
class WebfluxErrorResponses extends FailureResponses {

    // WebClient wraps connect, pool-acquire and response timeouts in WebClientRequestException.
    @ExceptionHandler(WebClientException.class)
    ResponseEntity<String> downstreamFailed(WebClientException e) {
        return badGateway(e);
    }
}

package dev.loomflux.targets.mvc;

import dev.loomflux.targets.FailureResponses;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.client.RestClientException;

/** The shared failure statuses, and RestClient's failure (every library's, the permit wait's too) as 502. */
@RestControllerAdvice
class MvcErrorResponses extends FailureResponses {

    @ExceptionHandler(RestClientException.class)
    ResponseEntity<String> downstreamFailed(RestClientException e) {
        return badGateway(e);
    }
}

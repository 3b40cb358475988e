package io.posekit.api.http;

import io.posekit.asset.ImportException;
import io.posekit.store.CorruptAssetException;
import io.posekit.store.ParsingBusyException;
import io.posekit.store.StoreUnavailableException;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every failure into an RFC 9457 {@code application/problem+json} response with a precise detail.
 * Spring MVC's own exceptions (unknown path, wrong method, missing parameter…) come through {@link ResponseEntityExceptionHandler}; posekit's are mapped here:
 * bad parameters 400, unknown things 404, an asset corrupt in the store 410, too large 413, unsupported format
 * 415, invalid (or too slow to parse) file 422, parsing saturated or the asset store unreachable 503 with
 * {@code Retry-After}. Only a genuine
 * server fault or a lack of capacity is a 5xx.
 */
@RestControllerAdvice
class ProblemHandling extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandling.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Object> api(ApiException e, WebRequest request) {
        return problem(e.status(), e.title(), e.getMessage(), e, request);
    }

    @ExceptionHandler(ImportException.class)
    ResponseEntity<Object> importFailed(ImportException e, WebRequest request) {
        return switch (e.kind()) {
            case INVALID -> problem(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid asset file", e.getMessage(), e, request);
            case UNSUPPORTED -> problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported format", e.getMessage(), e, request);
            case TOO_LARGE -> problem(HttpStatus.CONTENT_TOO_LARGE, "Asset too large", e.getMessage(), e, request);
        };
    }

    @ExceptionHandler(CorruptAssetException.class)
    ResponseEntity<Object> corrupt(CorruptAssetException e, WebRequest request) {
        return problem(HttpStatus.GONE, "Asset corrupt", e.getMessage(), e, request);
    }

    @ExceptionHandler(ParsingBusyException.class)
    ResponseEntity<Object> busy(ParsingBusyException e, WebRequest request) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, e.retryAfter().toSeconds())));
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "Server busy", e.getMessage(), e, request, headers);
    }

    @ExceptionHandler(StoreUnavailableException.class)
    ResponseEntity<Object> storeUnavailable(StoreUnavailableException e, WebRequest request) {
        log.warn("asset store unavailable: {}", e.getMessage());
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, e.retryAfter().toSeconds())));
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "Storage unavailable", e.getMessage()
                + "; nothing was changed, retry after Retry-After seconds", e, request, headers);
    }

    @ExceptionHandler(UncheckedIOException.class)
    ResponseEntity<Object> storage(UncheckedIOException e, WebRequest request) {
        log.error("storage failure", e);
        return problem(HttpStatus.SERVICE_UNAVAILABLE, "Storage unavailable", e.getMessage(), e, request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, WebRequest request) {
        log.error("unexpected failure", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
                "the server failed unexpectedly; the failure has been logged", e, request);
    }

    private ResponseEntity<Object> problem(HttpStatusCode status, String title, String detail, Exception e,
            WebRequest request) {
        return problem(status, title, detail, e, request, new HttpHeaders());
    }

    private ResponseEntity<Object> problem(HttpStatusCode status, String title, String detail, Exception e,
            WebRequest request, HttpHeaders headers) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(status, detail);
        body.setTitle(title);
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return handleExceptionInternal(e, body, headers, status, request);
    }
}

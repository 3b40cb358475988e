package io.posekit.api;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses, with the status and the precise detail that the problem+json response carries.
 */
final class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String title;

    ApiException(HttpStatus status, String title, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
    }

    HttpStatus status() {
        return status;
    }

    String title() {
        return title;
    }

    static ApiException badRequest(String title, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, title, detail);
    }

    static ApiException notFound(String title, String detail) {
        return new ApiException(HttpStatus.NOT_FOUND, title, detail);
    }

    static ApiException unsupportedMediaType(String detail) {
        return new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", detail);
    }

    static ApiException tooLarge(String detail) {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "Upload too large", detail);
    }
}

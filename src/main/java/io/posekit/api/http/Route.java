package io.posekit.api.http;

import io.posekit.api.security.Scope;
import java.util.List;
import java.util.Set;

/**
 * One operation of the API: its method and path, what it reads and answers (for the OpenAPI contract test and the
 * {@code 405}/{@code 415} answers), where it runs, and its handler.
 *
 * @param method the HTTP method, upper case
 * @param template the path
 * @param queryParameters the names of the query parameters it reads; any other is a 400, and so is one given twice
 *     unless it is {@code repeatable}
 * @param repeatable the query parameters that may be given more than once (their values in order)
 * @param consumes the request media types it accepts; empty when it reads no body
 * @param produces the media types of its 200/201 answers
 * @param inline whether a request may be answered on the event loop (which must never block or run long: one per
 *     core serves every connection); otherwise the handler runs on the worker pool
 * @param maxBody the largest body it reads, bytes (0 when it reads none); a larger one is a 413
 * @param maxBodyText that limit in words, for the 413's detail ({@code the upload limit of … bytes})
 * @param immutable whether its 200 answers are a pure function of the path, query and {@code Accept} (see
 *     {@link ConditionalRequests})
 * @param scope the scope a caller needs (see {@code AccessPolicy}); {@code null} for the routes that are not
 *     operations on assets (health, the API's document), which the open paths decide
 * @param precheck runs after the caller is known and before a body is read: refuses what would fail anyway (a
 *     tenant's quota) without reading the body
 * @param upload for a route whose body is an upload, what opens the sink the body is streamed into as it arrives
 *     ({@link Exchange#upload()} then holds the files); {@code null} when the body is read whole into memory
 *     ({@link Exchange#body()}, for the small JSON bodies)
 * @param handler makes the answer
 */
public record Route(String method, PathTemplate template, List<String> queryParameters, Set<String> repeatable,
        List<String> consumes, List<String> produces, java.util.function.Predicate<Exchange> inline, long maxBody,
        String maxBodyText, boolean immutable, Scope scope, Precheck precheck, UploadSink.Opener upload,
        Handler handler) {

    /** Handlers that never block and are cheap: they run on the event loop. */
    public static final java.util.function.Predicate<Exchange> EVENT_LOOP = e -> true;
    /** Handlers that may block or run long (uploads, store I/O, streaming, large answers): the worker pool. */
    public static final java.util.function.Predicate<Exchange> WORKER = e -> false;

    /** Refuses a request before its body is read. */
    @FunctionalInterface
    public interface Precheck {
        /** @throws ApiException when the request is refused */
        void check(Exchange exchange);

        Precheck NONE = e -> { };
    }

    /** Makes the answer to one request. */
    @FunctionalInterface
    public interface Handler {
        /**
         * @throws Exception an {@link ApiException} or another failure the problem mapping knows; anything else is a
         *     500
         */
        Reply handle(Exchange exchange) throws Exception;
    }

    @Override
    public String toString() {
        return method + " " + template;
    }
}

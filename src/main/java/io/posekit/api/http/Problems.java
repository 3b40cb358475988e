package io.posekit.api.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.posekit.api.security.Denied;
import io.posekit.asset.ImportException;
import io.posekit.store.CorruptAssetException;
import io.posekit.store.ParsingBusyException;
import io.posekit.store.QuotaExceededException;
import io.posekit.store.StoreUnavailableException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;

/**
 * Turns every failure into an RFC 9457 {@code application/problem+json} answer with a precise detail: bad
 * parameters 400, unknown things 404, wrong method 405, an asset corrupt in the store 410, too large 413, unsupported
 * format or body type 415, invalid (or too slow to parse) file 422, a body that stopped arriving 408 (the connection
 * closed), parsing saturated or the asset store unreachable 503 with {@code Retry-After}. Only a genuine server fault or a lack of capacity is a 5xx.
 */
public final class Problems {

    public static final String PROBLEM_JSON = "application/problem+json";
    private static final Logger log = LoggerFactory.getLogger(Problems.class);

    /** The answer to {@code failure} of a request for {@code path} (the problem's {@code instance}). */
    public Reply reply(Throwable failure, String path) {
        return switch (failure) {
            case ApiException e -> {
                Reply r = problem(e.status().value(), e.title(), e.getMessage(), path);
                for (Map.Entry<String, String> h : e.headers().entrySet()) {
                    r.header(h.getKey(), h.getValue());
                }
                yield r;
            }
            case ImportException e -> switch (e.kind()) {
                case INVALID -> problem(422, "Invalid asset file", e.getMessage(), path);
                case UNSUPPORTED -> problem(415, "Unsupported format", e.getMessage(), path);
                case TOO_LARGE -> problem(413, "Asset too large", e.getMessage(), path);
            };
            case Denied e -> problem(e.status(), e.title(), e.getMessage(), path)
                    .header(HttpHeaderNames.WWW_AUTHENTICATE, e.challenge());
            case CorruptAssetException e -> problem(410, "Asset corrupt", e.getMessage(), path);
            case QuotaExceededException e -> problem(403, "Quota exceeded", e.getMessage(), path);
            case ParsingBusyException e -> problem(503, "Server busy", e.getMessage(), path)
                    .header("Retry-After", Long.toString(Math.max(1, e.retryAfter().toSeconds())));
            case StoreUnavailableException e -> {
                // what failed where (paths, buckets, the store's own words) goes to the log, not to the client
                log.warn("asset store unavailable: {}", e.getMessage(), e.getCause());
                yield problem(503, "Storage unavailable", "the asset store could not be reached; nothing was changed, "
                        + "retry after Retry-After seconds", path)
                        .header("Retry-After", Long.toString(Math.max(1, e.retryAfter().toSeconds())));
            }
            case UncheckedIOException e -> {
                log.error("storage failure", e);
                yield problem(503, "Storage unavailable", "the asset store failed; nothing was changed", path)
                        .header("Retry-After", "1");
            }
            case io.netty.handler.timeout.ReadTimeoutException e -> problem(408, "Request timeout",
                    "the request body stopped arriving (posekit.http.read-timeout)", path).header("Connection", "close");
            case reactor.netty.channel.AbortedException e -> {
                // the connection closed under a request still being read (the client went, or a deadline closed it
                // after its 408): nobody is left to read an answer, and nothing failed here
                log.debug("request aborted: {}", e.getMessage());
                yield problem(400, "Request aborted", "the connection closed before the request was read", path)
                        .header("Connection", "close");
            }
            case JacksonException e -> problem(400, "Invalid body", "the body is not the JSON expected here: "
                    + e.getOriginalMessage(), path);
            default -> {
                log.error("unexpected failure", failure);
                yield problem(500, "Internal error", "the server failed unexpectedly; the failure has been logged", path);
            }
        };
    }

    /** A problem answer: {@code type}, {@code title}, {@code status}, {@code detail}, {@code instance}. */
    public static Reply problem(int status, String title, String detail, String path) {
        io.posekit.api.json.JsonOut out = io.posekit.api.json.JsonOut.get();
        out.raw("{\"type\":\"about:blank\",\"title\":").string(title)
                .raw(",\"status\":").number(status)
                .raw(",\"detail\":").string(detail)
                .raw(",\"instance\":").string(path).raw('}');
        return Reply.of(status, PROBLEM_JSON, out.toBytes());
    }
}

package io.posekit.api.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPOutputStream;

/**
 * gzip for JSON answers when the client asks for it ({@code Accept-Encoding}, RFC 9110 §12.5.3), by the JDK's
 * {@link GZIPOutputStream}. Binary answers (float32, GLB, PNG, GIF) are sent as they are: they are already dense or
 * compressed. A compressed answer's bytes differ from the plain one's, so its entity tag becomes weak
 * ({@code W/"…"}, RFC 9110 §8.8.1) and every JSON answer varies by {@code Accept-Encoding}.
 */
final class Compression {

    /** Smaller bodies are sent as they are (gzip's header and the CPU cost more than they save). */
    static final int MIN_BYTES = 1024;
    private static final Set<String> TYPES = Set.of("application/json", "application/problem+json",
            "model/gltf+json", "application/x-ndjson", "application/vnd.spring-boot.actuator.v3+json");

    private Compression() {
    }

    /** Whether answers of {@code contentType} are compressed when asked. */
    static boolean compressible(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        return TYPES.contains((semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT));
    }

    /** Whether {@code Accept-Encoding} admits gzip: listed (or {@code *}) with a quality above 0. */
    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        double gzip = -1;
        double any = -1;
        for (String part : acceptEncoding.split(",")) {
            String[] params = part.split(";");
            String coding = params[0].strip().toLowerCase(Locale.ROOT);
            double q = 1;
            for (int i = 1; i < params.length; i++) {
                String p = params[i].strip();
                if (p.regionMatches(true, 0, "q=", 0, 2)) {
                    try {
                        q = Double.parseDouble(p.substring(2).strip());
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                }
            }
            if (coding.equals("gzip") || coding.equals("x-gzip")) {
                gzip = Math.max(gzip, q);
            } else if (coding.equals("*")) {
                any = Math.max(any, q);
            }
        }
        return gzip >= 0 ? gzip > 0 : any > 0;
    }

    /** Marks a reply as gzip-encoded: {@code Content-Encoding}, and its ETag made weak. */
    static void mark(Reply reply) {
        reply.header(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        String etag = reply.headers().get(HttpHeaderNames.ETAG);
        if (etag != null && !etag.startsWith("W/")) {
            reply.header(HttpHeaderNames.ETAG, "W/" + etag);
        }
    }

    /** {@code body} compressed (released). */
    static ByteBuf gzip(ByteBuf body) {
        ByteBuf out = Unpooled.buffer(Math.max(64, body.readableBytes() / 4));
        try (OutputStream gz = new GZIPOutputStream(new ByteBufOutputStream(out), 8192)) {
            body.readBytes(gz, body.readableBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            body.release();
        }
        return out;
    }

    /** A stream written through gzip. */
    static Reply.StreamBody gzip(Reply.StreamBody body) {
        return out -> {
            GZIPOutputStream gz = new GZIPOutputStream(out, 8192);
            body.writeTo(gz);
            gz.finish();
            gz.flush();
        };
    }
}

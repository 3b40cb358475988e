package io.posekit.api.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A streaming reader of {@code multipart/form-data} bodies (RFC 7578 over RFC 2046): the body is fed in pieces as it
 * arrives ({@link #feed}), and each part's content is handed to a {@link Parts} listener as it is found, so nothing but
 * a fixed buffer ({@link #BUFFER_BYTES}) is held whatever the size of the body.
 *
 * <p>Why posekit parses this itself: the container's parser scans the body a byte at a time and spools large parts to
 * temporary files of its own, which cost more than parsing a typical model (BrainStem.glb, 3.2 MB: 16 ms of a 40 ms
 * upload); Netty's {@code HttpPostMultipartRequestDecoder} keeps a part in memory or in a file it names, where posekit
 * writes into its store's spool. Here the delimiter {@code CRLF--boundary} is found by a Boyer–Moore–Horspool search,
 * which looks at about one byte in every {@code boundary length} of part content, and each byte is copied once, into
 * the buffer, before the listener writes it out. The body is read as if it began with CRLF, so a first delimiter at
 * its very start and one after a preamble are the same case.
 *
 * <p>Accepted: a preamble before the first delimiter, transport padding (spaces, tabs) after a delimiter, part headers
 * in UTF-8 (as browsers send file names), {@code Content-Disposition} parameters quoted (a backslash escapes a quote or
 * a backslash; any other backslash is itself, as in a Windows path) or bare, {@code filename*=UTF-8''…} (RFC 5987,
 * preferred over {@code filename}), and anything after the close delimiter (an epilogue). Other part headers are
 * ignored.
 *
 * <p>Failure: {@link ApiException} 400 naming what is wrong (no first delimiter, a part without a header end or without
 * a closing delimiter, a part without {@code Content-Disposition: form-data; name=…}), 413 beyond {@code maxParts}
 * parts. Not thread-safe: one body, fed in order.
 */
public final class MultipartBody {

    /** Receives the parts of a body as they are read. */
    interface Parts {
        /** A part begins: its form field name and file name ({@code null} for a plain field). */
        void begin(String name, String filename);

        /** The next bytes of the current part's content. */
        void content(byte[] bytes, int offset, int length);

        /** The current part ended. */
        void end();
    }

    /** The headers of one part: its form field name and its file name ({@code null} for a plain field). */
    record PartHeaders(String name, String filename) {
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final int MAX_HEADER_BYTES = 16 * 1024;
    private static final int MAX_PADDING = 1024;
    /** Content is handed on in pieces of up to this many bytes. */
    private static final int CONTENT_BYTES = 64 * 1024;
    /** The memory one reader holds: its buffer. */
    static final int BUFFER_BYTES = CONTENT_BYTES + MAX_HEADER_BYTES + 128;

    private enum State { PREAMBLE, AFTER_DELIMITER, HEADERS, CONTENT, DONE }

    private final byte[] delimiter;
    private final int[] skip;
    private final int maxParts;
    private final Parts listener;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int start;
    private int end;
    private State state = State.PREAMBLE;
    private int parts;
    private int padding;

    /**
     * @param boundary the boundary from the content type (see {@link #boundary})
     * @param maxParts the most parts accepted
     * @param listener receives the parts
     */
    MultipartBody(String boundary, int maxParts, Parts listener) {
        byte[] dashBoundary = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        // the delimiter between parts; the body is read as if it began with CRLF, so the first one needs no special case
        delimiter = new byte[dashBoundary.length + 2];
        delimiter[0] = CR;
        delimiter[1] = LF;
        System.arraycopy(dashBoundary, 0, delimiter, 2, dashBoundary.length);
        skip = skipTable(delimiter);
        this.maxParts = maxParts;
        this.listener = listener;
        buffer[0] = CR;
        buffer[1] = LF;
        end = 2;
    }

    /**
     * The boundary parameter of a {@code multipart/form-data} content type.
     *
     * @throws ApiException 400 when it is missing, empty or longer than RFC 2046's 70 characters
     */
    static String boundary(String contentType) {
        String boundary = parameter(contentType, "boundary");
        if (boundary == null || boundary.isEmpty() || boundary.length() > 70) {
            throw ApiException.badRequest("Malformed multipart request",
                    "the multipart/form-data content type needs a boundary parameter of 1 to 70 characters");
        }
        return boundary;
    }

    /** Reads the next {@code length} bytes of the body. */
    void feed(byte[] bytes, int offset, int length) {
        while (length > 0) {
            int n = Math.min(length, room());
            System.arraycopy(bytes, offset, buffer, end, n);
            end += n;
            offset += n;
            length -= n;
            process();
        }
    }

    /** Reads the piece's readable bytes (consuming them). */
    void feed(io.netty.buffer.ByteBuf piece) {
        while (piece.isReadable()) {
            int n = Math.min(piece.readableBytes(), room());
            piece.readBytes(buffer, end, n);
            end += n;
            process();
        }
    }

    /**
     * The body ended.
     *
     * @throws ApiException 400 when it ended before its close delimiter
     */
    void finish() {
        switch (state) {
            case DONE -> { }
            case PREAMBLE -> throw malformed("the body does not contain the boundary given in the Content-Type");
            case HEADERS -> throw malformed("part " + (parts + 1) + " has no end of headers (CRLF CRLF)");
            default -> throw malformed("part " + Math.max(1, parts) + " is not closed by a boundary (is the body"
                    + " truncated?)");
        }
    }

    /** Free space at the buffer's end, after moving what is left of it to its start. */
    private int room() {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        return buffer.length - end;
    }

    /** Consumes what the buffer holds as far as it can be told apart; leaves what may be the start of a delimiter. */
    private void process() {
        while (true) {
            switch (state) {
                case PREAMBLE -> {
                    int found = indexOf(buffer, start, end, delimiter, skip);
                    if (found < 0) {
                        start = Math.max(start, end - delimiter.length + 1); // the preamble is dropped
                        return;
                    }
                    start = found + delimiter.length;
                    state = State.AFTER_DELIMITER;
                }
                case AFTER_DELIMITER -> {
                    // "--" closes the body; otherwise transport padding and CRLF open the next part
                    while (start < end && (buffer[start] == ' ' || buffer[start] == '\t')) {
                        start++;
                        if (++padding > MAX_PADDING) {
                            throw malformed("a boundary line is not followed by CRLF or --");
                        }
                    }
                    if (end - start < 2) {
                        return;
                    }
                    if (padding == 0 && buffer[start] == '-' && buffer[start + 1] == '-') {
                        state = State.DONE;
                        continue;
                    }
                    if (buffer[start] != CR || buffer[start + 1] != LF) {
                        throw malformed("a boundary line is not followed by CRLF or --");
                    }
                    start += 2;
                    padding = 0;
                    if (parts == maxParts) {
                        throw ApiException.tooLarge("the multipart body has more than " + maxParts + " parts");
                    }
                    state = State.HEADERS;
                }
                case HEADERS -> {
                    int limit = Math.min(end, start + MAX_HEADER_BYTES + 4);
                    int headerEnd = indexOf(buffer, start, limit, new byte[] {CR, LF, CR, LF});
                    if (headerEnd < 0) {
                        if (limit - start >= MAX_HEADER_BYTES + 4) {
                            throw malformed("part " + (parts + 1) + " has no end of headers (CRLF CRLF) within "
                                    + MAX_HEADER_BYTES + " bytes");
                        }
                        return;
                    }
                    parts++;
                    PartHeaders headers = headers(new String(buffer, start, headerEnd - start, StandardCharsets.UTF_8),
                            parts);
                    start = headerEnd + 4;
                    listener.begin(headers.name(), headers.filename());
                    state = State.CONTENT;
                }
                case CONTENT -> {
                    int found = indexOf(buffer, start, end, delimiter, skip);
                    if (found >= 0) {
                        if (found > start) {
                            listener.content(buffer, start, found - start);
                        }
                        listener.end();
                        start = found + delimiter.length;
                        state = State.AFTER_DELIMITER;
                        continue;
                    }
                    // all but what may be the start of a delimiter split across pieces
                    int safe = end - delimiter.length + 1;
                    if (safe > start) {
                        listener.content(buffer, start, safe - start);
                        start = safe;
                    }
                    return;
                }
                case DONE -> {
                    start = end; // the epilogue is dropped
                    return;
                }
            }
        }
    }

    /** The name and file name from a part's header block (content left empty). */
    private static PartHeaders headers(String block, int index) {
        for (String line : block.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase("content-disposition")) {
                String value = line.substring(colon + 1).strip();
                int semicolon = value.indexOf(';');
                String type = (semicolon < 0 ? value : value.substring(0, semicolon)).strip();
                String name = parameter(value, "name");
                if (!type.equalsIgnoreCase("form-data") || name == null) {
                    throw malformed("part " + index + " is not a form-data part with a name (Content-Disposition: "
                            + value + ")");
                }
                String extended = parameter(value, "filename*");
                String filename = extended != null ? decodeExtended(extended) : parameter(value, "filename");
                return new PartHeaders(name, filename);
            }
        }
        throw malformed("part " + index + " has no Content-Disposition header");
    }

    /**
     * The value of parameter {@code name} in a header value such as {@code form-data; name="file"; filename="a.glb"}
     * (case-insensitive name, quoted or bare value), or {@code null}.
     */
    static String parameter(String header, String name) {
        if (header == null) {
            return null;
        }
        int i = header.indexOf(';');
        while (i >= 0 && i < header.length()) {
            i++;
            while (i < header.length() && (header.charAt(i) == ' ' || header.charAt(i) == '\t')) {
                i++;
            }
            int eq = header.indexOf('=', i);
            if (eq < 0) {
                return null;
            }
            String key = header.substring(i, eq).strip().toLowerCase(Locale.ROOT);
            int v = eq + 1;
            while (v < header.length() && (header.charAt(v) == ' ' || header.charAt(v) == '\t')) {
                v++;
            }
            String value;
            int next;
            if (v < header.length() && header.charAt(v) == '"') {
                StringBuilder quoted = new StringBuilder();
                int c = v + 1;
                while (c < header.length() && header.charAt(c) != '"') {
                    // a backslash escapes a quote or a backslash (quoted-pair); before anything else it is itself, as in
                    // the Windows paths some clients send as file names
                    if (header.charAt(c) == '\\' && c + 1 < header.length()
                            && (header.charAt(c + 1) == '"' || header.charAt(c + 1) == '\\')) {
                        c++;
                    }
                    quoted.append(header.charAt(c));
                    c++;
                }
                value = quoted.toString();
                next = header.indexOf(';', c);
            } else {
                next = header.indexOf(';', v);
                value = (next < 0 ? header.substring(v) : header.substring(v, next)).strip();
            }
            if (key.equals(name)) {
                return value;
            }
            i = next;
        }
        return null;
    }

    /** An RFC 5987 value {@code charset'language'percent-encoded}; only UTF-8 (and its subset US-ASCII) is read. */
    private static String decodeExtended(String value) {
        int first = value.indexOf('\'');
        int second = first < 0 ? -1 : value.indexOf('\'', first + 1);
        if (second < 0) {
            throw malformed("filename* is not charset'language'value: " + value);
        }
        String charset = value.substring(0, first);
        if (!charset.equalsIgnoreCase("UTF-8") && !charset.equalsIgnoreCase("US-ASCII")) {
            throw malformed("filename* in charset " + charset + " (only UTF-8 is read)");
        }
        try {
            // '+' is a literal plus in RFC 5987, not a space as in form encoding
            return URLDecoder.decode(value.substring(second + 1).replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw malformed("filename* has a bad percent-encoding: " + value);
        }
    }

    /** Horspool's shift per byte value: how far the pattern may move when that byte is under its last position. */
    private static int[] skipTable(byte[] pattern) {
        int[] skip = new int[256];
        Arrays.fill(skip, pattern.length);
        for (int i = 0; i < pattern.length - 1; i++) {
            skip[pattern[i] & 0xff] = pattern.length - 1 - i;
        }
        return skip;
    }

    /** First index in {@code [from, to)} where {@code pattern} starts and fits, or −1 (Boyer–Moore–Horspool). */
    static int indexOf(byte[] body, int from, int to, byte[] pattern, int[] skip) {
        int last = pattern.length - 1;
        byte lastByte = pattern[last];
        int i = from;
        int end = to - pattern.length;
        while (i <= end) {
            byte b = body[i + last];
            if (b == lastByte && Arrays.equals(body, i, i + last, pattern, 0, last)) {
                return i;
            }
            i += skip[b & 0xff];
        }
        return -1;
    }

    /** First index in {@code [from, to)} where the short {@code pattern} starts and fits, or −1 (plain scan). */
    private static int indexOf(byte[] body, int from, int to, byte[] pattern) {
        for (int i = from; i + pattern.length <= to; i++) {
            if (Arrays.equals(body, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }

    private static ApiException malformed(String detail) {
        return ApiException.badRequest("Malformed multipart request", detail);
    }
}

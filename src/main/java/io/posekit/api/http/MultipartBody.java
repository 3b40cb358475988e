package io.posekit.api.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A {@code multipart/form-data} body (RFC 7578 over RFC 2046), split into its parts in one pass over bytes already in
 * memory.
 *
 * <p>Why posekit parses this itself: the container's parser scans the body a byte at a time and spools large parts to
 * temporary files, which cost more than parsing a typical model (BrainStem.glb, 3.2 MB: 16 ms of a 40 ms upload). Here
 * the delimiter {@code CRLF--boundary} is found by a Boyer–Moore–Horspool search, which looks at about one byte in
 * every {@code boundary length} of part content, and parts are copied once out of the body.
 *
 * <p>Accepted: a preamble before the first delimiter, transport padding (spaces, tabs) after a delimiter, part headers
 * in UTF-8 (as browsers send file names), {@code Content-Disposition} parameters quoted (with backslash escapes) or
 * bare, {@code filename*=UTF-8''…} (RFC 5987, preferred over {@code filename}), and anything after the close
 * delimiter (an epilogue). Other part headers are ignored.
 *
 * <p>Failure: {@link ApiException} 400 naming what is wrong (no first delimiter, a part without a header end or without
 * a closing delimiter, a part without {@code Content-Disposition: form-data; name=…}), 413 beyond {@code maxParts}
 * parts.
 */
public final class MultipartBody {

    /** One part: its form field name, its file name ({@code null} for a plain field) and its content. */
    record Part(String name, String filename, byte[] content) {
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final int MAX_HEADER_BYTES = 16 * 1024;

    private MultipartBody() {
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

    /**
     * Splits {@code body} into its parts.
     *
     * @param body the whole request body
     * @param boundary the boundary from the content type (see {@link #boundary})
     * @param maxParts the most parts accepted
     */
    static List<Part> parse(byte[] body, String boundary, int maxParts) {
        byte[] dashBoundary = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        // the delimiter between parts; the first one may come without the CRLF, at the very start of the body
        byte[] delimiter = new byte[dashBoundary.length + 2];
        delimiter[0] = CR;
        delimiter[1] = LF;
        System.arraycopy(dashBoundary, 0, delimiter, 2, dashBoundary.length);
        int[] skip = skipTable(delimiter);

        int at;
        if (startsWith(body, 0, dashBoundary)) {
            at = dashBoundary.length;
        } else {
            int found = indexOf(body, 0, delimiter, skip);
            if (found < 0) {
                throw malformed("the body does not contain the boundary given in the Content-Type");
            }
            at = found + delimiter.length;
        }
        List<Part> parts = new ArrayList<>();
        while (true) {
            // after a delimiter: "--" closes the body, otherwise padding and CRLF open the next part
            if (startsWith(body, at, new byte[] {'-', '-'})) {
                return parts;
            }
            while (at < body.length && (body[at] == ' ' || body[at] == '\t')) {
                at++;
            }
            if (at + 1 >= body.length || body[at] != CR || body[at + 1] != LF) {
                throw malformed("a boundary line is not followed by CRLF or --");
            }
            at += 2;
            if (parts.size() == maxParts) {
                throw ApiException.tooLarge("the multipart body has more than " + maxParts + " parts");
            }
            int headerEnd = indexOf(body, at, Math.min(body.length, at + MAX_HEADER_BYTES + 4), new byte[] {CR, LF, CR, LF});
            if (headerEnd < 0) {
                throw malformed("part " + (parts.size() + 1) + " has no end of headers (CRLF CRLF) within "
                        + MAX_HEADER_BYTES + " bytes");
            }
            Part headers = headers(new String(body, at, headerEnd - at, StandardCharsets.UTF_8), parts.size() + 1);
            int contentStart = headerEnd + 4;
            int contentEnd = indexOf(body, contentStart, delimiter, skip);
            if (contentEnd < 0) {
                throw malformed("part " + (parts.size() + 1) + " is not closed by a boundary (is the body truncated?)");
            }
            parts.add(new Part(headers.name(), headers.filename(), Arrays.copyOfRange(body, contentStart, contentEnd)));
            at = contentEnd + delimiter.length;
        }
    }

    /** The name and file name from a part's header block (content left empty). */
    private static Part headers(String block, int index) {
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
                return new Part(name, filename, null);
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
                    // a backslash escapes the next character (quoted-pair)
                    if (header.charAt(c) == '\\' && c + 1 < header.length()) {
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

    private static boolean startsWith(byte[] body, int at, byte[] prefix) {
        return body.length - at >= prefix.length && Arrays.equals(body, at, at + prefix.length, prefix, 0, prefix.length);
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

    /** First index ≥ {@code from} of {@code pattern} in {@code body}, or −1 (Boyer–Moore–Horspool). */
    static int indexOf(byte[] body, int from, byte[] pattern, int[] skip) {
        int last = pattern.length - 1;
        byte lastByte = pattern[last];
        int i = from;
        int end = body.length - pattern.length;
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

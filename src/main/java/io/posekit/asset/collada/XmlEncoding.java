package io.posekit.asset.collada;

import io.posekit.asset.ImportException;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses the character encoding of an XML document the way the XML specification's appendix F describes (byte
 * order mark, else the byte pattern of {@code <?xml}, else the declaration's {@code encoding}, else UTF-8) and
 * opens a strict streaming reader on it: malformed bytes fail the parse instead of being replaced. Decoding is
 * done here rather than by the StAX implementation because the JDK's decoder prints encoding errors to standard
 * error.
 */
final class XmlEncoding {

    private static final Pattern DECLARED = Pattern.compile("^<\\?xml[^>]*?\\sencoding\\s*=\\s*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"']");

    private XmlEncoding() {
    }

    /** An encoding and the length of the byte order mark that precedes the text. */
    record Detected(Charset charset, int skip) {
    }

    /**
     * A reader over {@code bytes} in their encoding, without the byte order mark.
     *
     * @throws ImportException (invalid) when the declared encoding is unknown
     */
    static Reader reader(byte[] bytes) {
        Detected d = detect(bytes);
        return new InputStreamReader(new ByteArrayInputStream(bytes, d.skip(), bytes.length - d.skip()),
                d.charset().newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    /**
     * Where decoding {@code bytes} first fails: {@code "byte N is not valid <charset>"}, or {@code null} when they
     * decode cleanly.
     */
    static String firstInvalidByte(byte[] bytes) {
        Detected d = detect(bytes);
        java.nio.charset.CharsetDecoder decoder = d.charset().newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes, d.skip(), bytes.length - d.skip());
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(8192);
        while (true) {
            java.nio.charset.CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                return "byte " + in.position() + " is not valid " + d.charset().name();
            }
            if (r.isUnderflow()) {
                return null;
            }
            out.clear();
        }
    }

    private static Detected detect(byte[] bytes) {
        int n = bytes.length;
        int b0 = n > 0 ? bytes[0] & 0xFF : -1;
        int b1 = n > 1 ? bytes[1] & 0xFF : -1;
        int b2 = n > 2 ? bytes[2] & 0xFF : -1;
        int b3 = n > 3 ? bytes[3] & 0xFF : -1;
        if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) {
            return new Detected(StandardCharsets.UTF_8, 3);
        }
        if (b0 == 0 && b1 == 0 && b2 == 0xFE && b3 == 0xFF) {
            return new Detected(Charset.forName("UTF-32BE"), 4);
        }
        if (b0 == 0xFF && b1 == 0xFE && b2 == 0 && b3 == 0) {
            return new Detected(Charset.forName("UTF-32LE"), 4);
        }
        if (b0 == 0xFE && b1 == 0xFF) {
            return new Detected(StandardCharsets.UTF_16BE, 2);
        }
        if (b0 == 0xFF && b1 == 0xFE) {
            return new Detected(StandardCharsets.UTF_16LE, 2);
        }
        if (b0 == 0 && b1 == 0 && b2 == 0 && b3 == '<') {
            return new Detected(Charset.forName("UTF-32BE"), 0);
        }
        if (b0 == '<' && b1 == 0 && b2 == 0 && b3 == 0) {
            return new Detected(Charset.forName("UTF-32LE"), 0);
        }
        if (b0 == 0 && b1 == '<') {
            return new Detected(StandardCharsets.UTF_16BE, 0);
        }
        if (b0 == '<' && b1 == 0) {
            return new Detected(StandardCharsets.UTF_16LE, 0);
        }
        return new Detected(declared(bytes), 0);
    }

    /** The encoding an ASCII-compatible document declares, UTF-8 when none. */
    private static Charset declared(byte[] bytes) {
        int end = Math.min(bytes.length, 256);
        String head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
        Matcher m = DECLARED.matcher(head);
        if (!m.find()) {
            return StandardCharsets.UTF_8;
        }
        String name = m.group(1);
        try {
            Charset c = Charset.forName(name);
            // a declaration read as ASCII cannot be UTF-16/32: such files start with a BOM or zero bytes, seen above
            if (c.name().startsWith("UTF-16") || c.name().startsWith("UTF-32")) {
                return StandardCharsets.UTF_8;
            }
            return c;
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid("the XML declaration names the encoding " + Text.quote(name)
                    + ", which is not supported");
        }
    }
}

package io.posekit.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The streaming multipart reader: every body is fed in pieces of random sizes (one byte to a whole body), so a
 * delimiter, a header block or CRLF split across pieces is read as when it arrives whole.
 */
class MultipartBodyTest {

    private static final String B = "----posekitBoundary7MA4YWxkTrZu0gW";
    private static final SplittableRandom PIECES = new SplittableRandom(5);

    /** A part as the reader handed it on. */
    record Part(String name, String filename, byte[] content) {
    }

    /** Reads {@code body} fed in random pieces, collecting its parts. */
    static List<Part> parse(byte[] body, String boundary, int maxParts) {
        List<Part> parts = new ArrayList<>();
        ByteArrayOutputStream[] content = new ByteArrayOutputStream[1];
        String[][] headers = new String[1][];
        MultipartBody reader = new MultipartBody(boundary, maxParts, new MultipartBody.Parts() {
            @Override
            public void begin(String name, String filename) {
                headers[0] = new String[] {name, filename};
                content[0] = new ByteArrayOutputStream();
            }

            @Override
            public void content(byte[] bytes, int offset, int length) {
                content[0].write(bytes, offset, length);
            }

            @Override
            public void end() {
                parts.add(new Part(headers[0][0], headers[0][1], content[0].toByteArray()));
            }
        });
        int maxPiece = 1 + PIECES.nextInt(Math.max(1, body.length));
        for (int at = 0; at < body.length; ) {
            int n = Math.min(body.length - at, 1 + PIECES.nextInt(maxPiece));
            if (PIECES.nextBoolean()) {
                reader.feed(body, at, n);
            } else {
                reader.feed(io.netty.buffer.Unpooled.wrappedBuffer(body, at, n));
            }
            at += n;
        }
        reader.finish();
        return parts;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] c : chunks) {
            out.writeBytes(c);
        }
        return out.toByteArray();
    }

    private static ApiException problem(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError("no ApiException");
    }

    @Test
    void partsWithPreambleEpilogueQuotingAndExtendedNames() {
        // the content holds CRLF, a near-miss of the delimiter and the boundary without its leading CRLF
        byte[] content = bytes("a\r\nb\r\n--" + B.substring(0, B.length() - 1) + "x" + "--" + B + "z");
        byte[] body = concat(bytes("preamble\r\n--" + B + "  \r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"we\\\"ird.glb\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n"), content,
                bytes("\r\n--" + B + "\r\ncontent-disposition: form-data; name=file; filename*=UTF-8''r%C3%A9sum%C3%A9+1.bin;"
                        + " filename=\"fallback.bin\"\r\n\r\n"),
                new byte[0],
                bytes("\r\n--" + B + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--" + B
                        + "--\r\nepilogue"));
        List<Part> parts = parse(body, B, 10);
        assertThat(parts).hasSize(3);
        assertThat(parts.get(0).name()).isEqualTo("file");
        assertThat(parts.get(0).filename()).isEqualTo("we\"ird.glb");
        assertThat(parts.get(0).content()).isEqualTo(content);
        assertThat(parts.get(1).filename()).isEqualTo("résumé+1.bin");
        assertThat(parts.get(1).content()).isEmpty();
        assertThat(parts.get(2).name()).isEqualTo("note");
        assertThat(parts.get(2).filename()).isNull();
        assertThat(new String(parts.get(2).content(), StandardCharsets.UTF_8)).isEqualTo("hello");
        // the body may start with the boundary itself
        List<Part> first = parse(bytes("--" + B
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.glb\"\r\n\r\nxyz\r\n--" + B + "--"), B, 10);
        assertThat(first).singleElement().satisfies(p -> assertThat(p.content()).isEqualTo(bytes("xyz")));
    }

    /** A backslash escapes only a quote or a backslash: a Windows path keeps its separators, and loses its folders. */
    @Test
    void windowsPathsInFileNamesKeepTheirSeparatorsAndLoseTheirFolders() {
        String header = "form-data; name=\"file\"; filename=\"..\\..\\..\\evil2.gltf\"";
        assertThat(MultipartBody.parameter(header, "filename")).isEqualTo("..\\..\\..\\evil2.gltf");
        assertThat(UploadReader.baseName(MultipartBody.parameter(header, "filename"))).isEqualTo("evil2.gltf");
        assertThat(MultipartBody.parameter("form-data; filename=\"a\\\\b\\\"c.glb\"", "filename"))
                .isEqualTo("a\\b\"c.glb");
        assertThat(UploadReader.baseName("C:\\Users\\me/models\\fox.glb")).isEqualTo("fox.glb");
    }

    @Test
    void boundaryFromTheContentType() {
        assertThat(MultipartBody.boundary("multipart/form-data; boundary=abc")).isEqualTo("abc");
        assertThat(MultipartBody.boundary("multipart/form-data; charset=utf-8; BOUNDARY=\"a b;c\"")).isEqualTo("a b;c");
        assertThat(problem(() -> MultipartBody.boundary("multipart/form-data")).getMessage())
                .contains("needs a boundary parameter of 1 to 70 characters");
        assertThat(problem(() -> MultipartBody.boundary("multipart/form-data; boundary=" + "x".repeat(71))).getMessage())
                .contains("1 to 70 characters");
    }

    @Test
    void malformedBodiesNameTheirFault() {
        String head = "--" + B + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.glb\"\r\n\r\n";
        assertThat(problem(() -> parse(bytes("no boundary here"), B, 10)).getMessage())
                .contains("the body does not contain the boundary given in the Content-Type");
        assertThat(problem(() -> parse(bytes(head + "cut short"), B, 10)).getMessage())
                .contains("part 1 is not closed by a boundary (is the body truncated?)");
        assertThat(problem(() -> parse(bytes("--" + B + "\r\nContent-Disposition: form-data; name=x"), B,
                10)).getMessage()).contains("part 1 has no end of headers (CRLF CRLF)");
        assertThat(problem(() -> parse(bytes("--" + B + "\r\nContent-Disposition: form-data; name=x\r\nX: "
                + "y".repeat(20_000) + "\r\n\r\n"), B, 10)).getMessage())
                .contains("part 1 has no end of headers (CRLF CRLF) within 16384 bytes");
        assertThat(problem(() -> parse(bytes("--" + B + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + B
                + "--"), B, 10)).getMessage()).contains("part 1 has no Content-Disposition header");
        assertThat(problem(() -> parse(bytes("--" + B + "\r\nContent-Disposition: attachment\r\n\r\nx\r\n--"
                + B + "--"), B, 10)).getMessage()).contains("part 1 is not a form-data part with a name");
        assertThat(problem(() -> parse(bytes("--" + B + "junk\r\n"), B, 10)).getMessage())
                .contains("a boundary line is not followed by CRLF or --");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            many.append("--").append(B).append("\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n");
        }
        many.append("--").append(B).append("--");
        ApiException tooMany = problem(() -> parse(bytes(many.toString()), B, 3));
        assertThat(tooMany.getMessage()).contains("the multipart body has more than 3 parts");
        assertThat(parse(bytes(many.toString()), B, 4)).hasSize(4);
        assertThat(problem(() -> parse(bytes(head.replace("filename=\"a.glb\"", "filename*=latin1''a.glb")
                + "x\r\n--" + B + "--"), B, 10)).getMessage()).contains("filename* in charset latin1 (only UTF-8 is read)");
    }

    /** Random binary parts with random boundaries come back byte for byte. */
    @Test
    void randomPartsRoundTrip() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 300; round++) {
            String boundary = "b" + Long.toHexString(random.nextLong()) + "x".repeat(random.nextInt(20));
            int n = 1 + random.nextInt(5);
            List<byte[]> contents = new ArrayList<>();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int i = 0; i < n; i++) {
                byte[] c = new byte[random.nextInt(round % 10 == 0 ? 200_000 : 3000)];
                // a small alphabet that includes CR, LF and '-' makes near-misses of the delimiter frequent
                byte[] alphabet = bytes("\r\n-b" + boundary.charAt(1));
                for (int k = 0; k < c.length; k++) {
                    c[k] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
                }
                contents.add(c);
                body.writeBytes(bytes((i == 0 ? "" : "\r\n") + "--" + boundary
                        + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f" + i + ".bin\"\r\n\r\n"));
                body.writeBytes(c);
            }
            body.writeBytes(bytes("\r\n--" + boundary + "--\r\n"));
            List<Part> parts = parse(body.toByteArray(), boundary, 10);
            assertThat(parts).hasSize(n);
            for (int i = 0; i < n; i++) {
                assertThat(parts.get(i).filename()).isEqualTo("f" + i + ".bin");
                assertThat(parts.get(i).content()).as("round %d part %d", round, i).isEqualTo(contents.get(i));
            }
        }
    }

    /** The Horspool search finds the first occurrence, as a naive scan does, over a two-letter alphabet. */
    @Test
    void searchAgreesWithANaiveScan() {
        SplittableRandom random = new SplittableRandom(3);
        for (int round = 0; round < 2000; round++) {
            byte[] hay = new byte[random.nextInt(200)];
            for (int i = 0; i < hay.length; i++) {
                hay[i] = (byte) ('a' + random.nextInt(2));
            }
            byte[] needle = new byte[1 + random.nextInt(6)];
            for (int i = 0; i < needle.length; i++) {
                needle[i] = (byte) ('a' + random.nextInt(2));
            }
            int from = hay.length == 0 ? 0 : random.nextInt(hay.length);
            int[] skip = new int[256];
            java.util.Arrays.fill(skip, needle.length);
            for (int i = 0; i < needle.length - 1; i++) {
                skip[needle[i] & 0xff] = needle.length - 1 - i;
            }
            int expected = -1;
            for (int i = from; i + needle.length <= hay.length; i++) {
                if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                    expected = i;
                    break;
                }
            }
            assertThat(MultipartBody.indexOf(hay, from, hay.length, needle, skip)).isEqualTo(expected);
        }
        assertThatThrownBy(() -> parse(new byte[0], B, 1)).isInstanceOf(ApiException.class);
    }
}

package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import java.nio.charset.StandardCharsets;

/**
 * Reads an FBX file's container, binary or ASCII, into the same {@link FbxNode} tree; interpreting the tree is the
 * scene importer's business. Both readers treat the bytes as hostile:
 *
 * <ul>
 *   <li>neither recurses: records are built on an explicit stack, so nesting is bounded by {@link #MAX_DEPTH}
 *       (422 beyond) and never by the thread's stack;</li>
 *   <li>more than {@link #MAX_RECORDS} records is too large (413), found while reading;</li>
 *   <li>the tree itself is charged to the {@link DecodeBudget} before it is allocated: {@link #RECORD_BYTES} per
 *       record, {@link #PROPERTY_BYTES} per property, plus the payload of strings, raw blobs and arrays (an array's
 *       element count × element size, before the array exists and before any decompression), so what a file makes
 *       the server hold is bounded by the budget whatever it claims;</li>
 *   <li>every failure is an {@link ImportException} naming the record and the byte offset (binary) or line
 *       (ASCII).</li>
 * </ul>
 *
 * <p>The container is chosen by the first bytes: the binary magic {@code "Kaydara FBX Binary  \0"} (anything starting
 * with {@code Kaydara} is read as binary, so a cut-short or damaged binary header is reported as such), else an ASCII
 * document, recognized by its first record ({@code Name:} after an optional BOM, blank lines and comments); anything
 * else is "not an FBX file" (422).
 */
final class FbxReader {

    /** The deepest record nesting accepted (top-level records are at depth 1). */
    static final int MAX_DEPTH = 256;
    /** The most records (not counting NULL records) one document may have. */
    static final int MAX_RECORDS = 10_000_000;
    /** What one record is charged to the budget (the node, its name and lists). */
    static final int RECORD_BYTES = 64;
    /** What one property is charged to the budget besides its payload (the reference and a boxed value). */
    static final int PROPERTY_BYTES = 16;

    static final byte[] BINARY_MAGIC = "Kaydara FBX Binary  \0".getBytes(StandardCharsets.ISO_8859_1);

    /** Longest record name or value quoted in a message. */
    private static final int MAX_QUOTED = 60;

    /** The parsed document: FBX version (e.g. 7400) and the root's children as a synthetic root FbxNode named "". */
    record Document(int version, boolean binary, FbxNode root) {
    }

    private FbxReader() {
    }

    /**
     * Parses a binary ("Kaydara FBX Binary  \0" magic) or ASCII FBX.
     *
     * @throws ImportException invalid/too large
     */
    static Document read(byte[] bytes, ImportLimits limits, DecodeBudget budget) {
        return read(bytes, limits, budget, MAX_DEPTH, MAX_RECORDS);
    }

    /** {@link #read(byte[], ImportLimits, DecodeBudget)} with other depth and record limits (tests). */
    static Document read(byte[] bytes, ImportLimits limits, DecodeBudget budget, int maxDepth, int maxRecords) {
        if (looksBinary(bytes)) {
            return new FbxBinaryReader(bytes, budget, maxDepth, maxRecords).read();
        }
        if (FbxAsciiReader.looksAscii(bytes)) {
            return new FbxAsciiReader(bytes, budget, maxDepth, maxRecords).read();
        }
        throw ImportException.invalid("not an FBX file: it starts neither with the binary FBX magic"
                + " 'Kaydara FBX Binary' nor with an ASCII FBX record ('Name: …')"
                + (bytes.length == 0 ? " (the file is empty)" : ""));
    }

    /** Whether the file starts with the binary magic, or with a prefix of it at least as long as the file allows. */
    private static boolean looksBinary(byte[] bytes) {
        // "Kaydara" alone is enough to call it a (possibly cut-short or damaged) binary file
        int n = Math.min(bytes.length, BINARY_MAGIC.length);
        if (n < 7) {
            return false;
        }
        for (int i = 0; i < 7; i++) {
            if (bytes[i] != BINARY_MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    /** A record name or text value for messages: control characters escaped, cut to 60 characters, in no quotes. */
    static String display(String s) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_QUOTED) + 8);
        int n = 0;
        for (int i = 0; i < s.length() && n < MAX_QUOTED; i++, n++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\x%02X", (int) c));
            } else {
                out.append(c);
            }
        }
        if (s.length() > MAX_QUOTED) {
            out.append('…');
        }
        return out.toString();
    }

    /** How messages name a record: {@code FBX record Model}, or {@code FBX record (no name)}. */
    static String record(String name) {
        return "FBX record " + (name.isEmpty() ? "(no name)" : display(name));
    }

    /** {@code n} and the noun, singular or plural: "1 property", "3 properties". */
    static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** Rejects versions that are not four-digit FBX versions (e.g. 6100, 7400, 7700). */
    static int checkVersion(long version, String where) {
        if (version < 1000 || version > 9999) {
            throw ImportException.invalid(where + " declares FBX version " + version
                    + "; FBX versions are four-digit numbers such as 7400");
        }
        return (int) version;
    }
}

package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads an ASCII FBX file into an {@link FbxNode} tree, the same shape a binary file gives:
 *
 * <pre>
 * ; comment
 * Name: value, value, … {
 *     Child: value
 *     Vertices: *6 {
 *         a: 0,1.5,2,3,4,5
 *     }
 * }
 * </pre>
 *
 * <p>Values: {@code "…"} strings, kept as written between the quotes (no unescaping; they may span lines); numbers,
 * {@link Long} for integers that fit and {@link Double} otherwise (also {@code 1.#INF}/{@code -1.#IND}-style and
 * {@code inf}/{@code nan} spellings); any other bare word ({@code T}, {@code Y}, {@code W}, {@code L} …) as a
 * {@link String}; {@code *N { a: … }} a {@code long[]} when every element is an integer, else a {@code double[]}, of
 * exactly N elements. FBX 6 layouts are read too: a value list may start on the line after its name and continue on
 * lines after a trailing comma or starting with one, a leading comma is skipped ({@code Content: ,}), and a record's
 * {@code &#123;} may open on the line after it. The version is {@code FBXHeaderExtension › FBXVersion}, required.
 *
 * <p>The reader scans the bytes once, never recursing (an explicit stack holds the open records), with the same
 * limits as the binary reader: depth, record count and the budget (records, properties, string bytes, array
 * elements × 8 charged before allocating; an array is counted and checked against its declared size before it is
 * allocated). Strings and names are decoded as UTF-8 (malformed sequences become U+FFFD); a leading UTF-8 BOM is
 * skipped. Messages give the line (and column) of the problem.
 */
final class FbxAsciiReader {

    private static final int INTEGER = 0;
    private static final int REAL = 1;
    private static final int NOT_A_NUMBER = 2;

    private final byte[] b;
    private final DecodeBudget budget;
    private final int maxDepth;
    private final int maxRecords;
    private final Map<String, String> names = new HashMap<>();
    private int pos;
    private int line = 1;
    private int lineStart;
    private int records;

    FbxAsciiReader(byte[] bytes, DecodeBudget budget, int maxDepth, int maxRecords) {
        this.b = bytes;
        this.budget = budget;
        this.maxDepth = maxDepth;
        this.maxRecords = maxRecords;
    }

    /** Whether the bytes start (after a BOM, blank lines and comments) with {@code Name:}. */
    static boolean looksAscii(byte[] bytes) {
        FbxAsciiReader r = new FbxAsciiReader(bytes, null, 0, 0);
        r.skipBom();
        r.skipSpace(true);
        int start = r.pos;
        r.skipWord();
        if (r.pos == start) {
            return false;
        }
        r.skipSpace(false);
        return r.pos < bytes.length && bytes[r.pos] == ':';
    }

    /** A record whose children are being read. */
    private static final class Open {
        final String name;
        final int line;
        final List<Object> properties;
        final List<FbxNode> children = new ArrayList<>();

        Open(String name, int line, List<Object> properties) {
            this.name = name;
            this.line = line;
            this.properties = properties;
        }
    }

    FbxReader.Document read() {
        skipBom();
        ArrayDeque<Open> stack = new ArrayDeque<>();
        Open root = new Open("", 0, List.of());
        stack.push(root);
        while (true) {
            budget.checkTime();
            skipSpace(true);
            if (pos == b.length) {
                if (stack.size() > 1) {
                    Open open = stack.peek();
                    throw ImportException.invalid("the ASCII FBX file ends inside " + FbxReader.record(open.name)
                            + " opened at line " + open.line + " (a '}' is missing)");
                }
                break;
            }
            if (b[pos] == '}') {
                if (stack.size() == 1) {
                    throw ImportException.invalid("the ASCII FBX file has a '}' at " + here()
                            + " that closes no record");
                }
                pos++;
                Open done = stack.pop();
                stack.peek().children.add(new FbxNode(done.name, done.properties, done.children));
                continue;
            }
            int nameLine = line;
            int nameColumn = pos - lineStart + 1;
            int start = pos;
            skipWord();
            if (pos == start) {
                throw ImportException.invalid("the ASCII FBX file has " + found() + " at line " + nameLine + ", column "
                        + nameColumn + " where a record name was expected");
            }
            String name = name(start, pos - start);
            skipSpace(false);
            if (pos == b.length || b[pos] != ':') {
                throw ImportException.invalid("the ASCII FBX file has the word '" + FbxReader.display(name)
                        + "' at line " + nameLine + ", column " + nameColumn + " where a record ('Name:') was expected;"
                        + " it is followed by " + found());
            }
            pos++;
            String where = FbxReader.record(name) + " at line " + nameLine;
            if (stack.size() > maxDepth) {
                throw ImportException.invalid(where + ": records are nested deeper than " + maxDepth + " levels");
            }
            if (++records > maxRecords) {
                throw ImportException.tooLarge("the FBX file has more than " + String.format("%,d", maxRecords)
                        + " records (" + where + " is one too many)");
            }
            budget.charge(FbxReader.RECORD_BYTES, 1, where);
            List<Object> properties = values(where);
            skipSpace(true);
            if (pos < b.length && b[pos] == '{') {
                pos++;
                stack.push(new Open(name, nameLine, properties));
            } else {
                stack.peek().children.add(new FbxNode(name, properties, List.of()));
            }
        }
        FbxNode tree = new FbxNode("", List.of(), root.children);
        return new FbxReader.Document(version(tree), false, tree);
    }

    private static int version(FbxNode root) {
        FbxNode header = root.child("FBXHeaderExtension");
        FbxNode version = header == null ? null : header.child("FBXVersion");
        if (version == null) {
            throw ImportException.invalid("the ASCII FBX file has no FBXHeaderExtension › FBXVersion record, so its"
                    + " FBX version is unknown");
        }
        if (version.properties().size() != 1 || !(version.properties().getFirst() instanceof Long v)) {
            throw ImportException.invalid("the ASCII FBX file's FBXHeaderExtension › FBXVersion must hold one"
                    + " integer, not " + version.properties().size() + " values " + describe(version.properties()));
        }
        return FbxReader.checkVersion(v, "the ASCII FBX file's FBXHeaderExtension › FBXVersion");
    }

    private static String describe(List<Object> values) {
        List<String> out = new ArrayList<>();
        for (Object v : values) {
            out.add(v instanceof String s ? "\"" + FbxReader.display(s) + "\"" : v.getClass().getSimpleName());
        }
        return out.toString();
    }

    /**
     * The values after {@code Name:} up to the end of the list (not consuming a following '{'). Besides values on the
     * name's line, FBX 6 layouts are read: values on the lines after a name that ends its line ({@code Key:} then
     * {@code 0,0,L,…}), continuation lines after a trailing comma or starting with one, and a leading comma
     * ({@code Content: ,}).
     */
    private List<Object> values(String where) {
        List<Object> out = new ArrayList<>();
        skipSpace(false);
        if (pos == b.length || b[pos] == '{' || b[pos] == '}') {
            return out;
        }
        if (isLineEnd(b[pos])) {
            skipSpace(true);
            if (!startsValues()) {
                return out;
            }
        }
        if (b[pos] == ',') {
            pos++;
            skipSpace(true);
        }
        while (true) {
            budget.charge(FbxReader.PROPERTY_BYTES, 1, where);
            out.add(value(where, out.size()));
            skipSpace(false);
            if (pos < b.length && isLineEnd(b[pos])) {
                // a continuation line may start with the comma
                skipSpace(true);
            }
            if (pos < b.length && b[pos] == ',') {
                pos++;
                skipSpace(true);
                continue;
            }
            return out;
        }
    }

    private static boolean isLineEnd(byte c) {
        return c == '\n' || c == '\r' || c == ';';
    }

    /** Whether a line starts with values rather than a record ({@code Name:}) or a brace; consumes nothing. */
    private boolean startsValues() {
        if (pos == b.length || b[pos] == '{' || b[pos] == '}') {
            return false;
        }
        if (b[pos] == '"' || b[pos] == ',') {
            return true;
        }
        int p = pos;
        while (p < b.length && isWordByte(b[p])) {
            p++;
        }
        if (p == pos) {
            return false;
        }
        while (p < b.length && (b[p] == ' ' || b[p] == '\t')) {
            p++;
        }
        return p == b.length || b[p] != ':';
    }

    private Object value(String where, int index) {
        if (pos == b.length) {
            throw ImportException.invalid(where + ": the file ends where value " + index + " was expected");
        }
        byte c = b[pos];
        if (c == '"') {
            return string(where);
        }
        if (c == '*') {
            return array(where);
        }
        int start = pos;
        skipWord();
        if (pos == start) {
            throw ImportException.invalid(where + ": value " + index + " was expected at " + here() + ", not "
                    + found());
        }
        return switch (classify(start, pos)) {
            case INTEGER -> parseLong(start, pos);
            case REAL -> parseDouble(start, pos);
            default -> name(start, pos - start);
        };
    }

    private String string(String where) {
        int openedLine = line;
        int openedColumn = pos - lineStart + 1;
        int start = ++pos;
        while (pos < b.length && b[pos] != '"') {
            if (b[pos] == '\n') {
                newline(pos);
            }
            pos++;
        }
        if (pos == b.length) {
            throw ImportException.invalid(where + ": the string opened at line " + openedLine + ", column "
                    + openedColumn + " is never closed");
        }
        int length = pos - start;
        pos++;
        budget.charge(length, 1, where);
        return new String(b, start, length, StandardCharsets.UTF_8);
    }

    /** {@code *N { a: v, v, … }}: counted and checked first, then charged, allocated and parsed. */
    private Object array(String where) {
        String at = here();
        pos++;
        int start = pos;
        while (pos < b.length && b[pos] >= '0' && b[pos] <= '9') {
            pos++;
        }
        if (pos == start || pos - start > 10) {
            throw ImportException.invalid(where + ": the array at " + at + " must declare its size as '*' and"
                    + " up to 10 digits");
        }
        long declared = Long.parseLong(new String(b, start, pos - start, StandardCharsets.ISO_8859_1));
        skipSpace(true);
        if (pos == b.length || b[pos] != '{') {
            throw ImportException.invalid(where + ": the array *" + declared + " at " + at + " must be followed by"
                    + " '{', not " + found());
        }
        pos++;
        skipSpace(true);
        int elementsStart;
        if (pos < b.length && b[pos] == 'a') {
            int nameStart = pos;
            skipWord();
            int nameLength = pos - nameStart;
            skipSpace(false);
            if (nameLength != 1 || pos == b.length || b[pos] != ':') {
                throw ImportException.invalid(where + ": the array *" + declared + " at " + at
                        + " must hold its values as 'a: …'");
            }
            pos++;
            elementsStart = pos;
        } else if (pos < b.length && b[pos] == '}') {
            elementsStart = pos;
        } else {
            throw ImportException.invalid(where + ": the array *" + declared + " at " + at + " must hold its values"
                    + " as 'a: …', not " + found());
        }
        // pass 1: count and classify, allocating nothing
        long count = 0;
        boolean integers = true;
        skipSpace(true);
        if (pos < b.length && b[pos] != '}') {
            while (true) {
                budget.checkTime();
                int s = pos;
                skipWord();
                if (pos == s) {
                    throw ImportException.invalid(where + ": array element " + count + " was expected at " + here()
                            + ", not " + found());
                }
                int kind = classify(s, pos);
                if (kind == NOT_A_NUMBER) {
                    throw ImportException.invalid(where + ": array element " + count + " '"
                            + FbxReader.display(new String(b, s, pos - s, StandardCharsets.UTF_8)) + "' at line " + line
                            + " is not a number");
                }
                integers &= kind == INTEGER;
                count++;
                skipSpace(true);
                if (pos < b.length && b[pos] == ',') {
                    pos++;
                    skipSpace(true);
                    if (pos < b.length && b[pos] == '}') {
                        break; // a trailing comma before the brace (ufbx's synthetic_vertex_gaps): ufbx reads it
                    }
                    continue;
                }
                break;
            }
        }
        if (pos == b.length || b[pos] != '}') {
            throw ImportException.invalid(where + ": the array *" + declared + " at " + at + " has " + found() + " at "
                    + here() + " where ',' or '}' was expected");
        }
        int end = pos;
        int endLine = line;
        int endLineStart = lineStart;
        if (count != declared) {
            throw ImportException.invalid(where + ": the array at " + at + " declares *" + declared + " values but"
                    + " holds " + count);
        }
        budget.charge(count, 8, where + ": array of " + count + " values");
        int n = (int) count;
        // pass 2: parse into the array
        pos = elementsStart;
        long[] longs = integers ? new long[n] : null;
        double[] doubles = integers ? null : new double[n];
        for (int k = 0; k < n; k++) {
            budget.checkTime();
            skipSpace(true);
            if (b[pos] == ',') {
                pos++;
                skipSpace(true);
            }
            int s = pos;
            skipWord();
            if (integers) {
                longs[k] = parseLong(s, pos);
            } else {
                doubles[k] = parseDouble(s, pos);
            }
        }
        // pass 2 counted the same lines again: back to where pass 1 left the counters
        pos = end + 1;
        line = endLine;
        lineStart = endLineStart;
        return integers ? longs : doubles;
    }

    /** INTEGER (fits a long), REAL or NOT_A_NUMBER for the word {@code [s, e)}. */
    private int classify(int s, int e) {
        int i = s;
        if (i < e && (b[i] == '+' || b[i] == '-')) {
            i++;
        }
        int intStart = i;
        while (i < e && isDigit(b[i])) {
            i++;
        }
        int intDigits = i - intStart;
        boolean real = false;
        int fracDigits = 0;
        if (i < e && b[i] == '.') {
            real = true;
            i++;
            int f = i;
            while (i < e && isDigit(b[i])) {
                i++;
            }
            fracDigits = i - f;
        }
        if (intDigits + fracDigits == 0) {
            return special(i == intStart ? s : -1, e);
        }
        if (i < e && (b[i] == 'e' || b[i] == 'E')) {
            real = true;
            i++;
            if (i < e && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int x = i;
            while (i < e && isDigit(b[i])) {
                i++;
            }
            if (i == x) {
                return NOT_A_NUMBER;
            }
        }
        if (i != e) {
            return special(s, e);
        }
        if (real) {
            return REAL;
        }
        if (intDigits <= 18) {
            return INTEGER;
        }
        try {
            Long.parseLong(new String(b, s, e - s, StandardCharsets.ISO_8859_1));
            return INTEGER;
        } catch (NumberFormatException overflow) {
            return REAL;
        }
    }

    /** MSVC's {@code 1.#INF}, {@code -1.#IND}, {@code 1.#QNAN} and {@code inf}/{@code infinity}/{@code nan}: REAL. */
    private int special(int s, int e) {
        if (s < 0) {
            return NOT_A_NUMBER;
        }
        String w = new String(b, s, e - s, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
        if (w.startsWith("+") || w.startsWith("-")) {
            w = w.substring(1);
        }
        if (w.equals("inf") || w.equals("infinity") || w.equals("nan")
                || w.matches("1\\.#(inf|ind|qnan|snan)0*")) {
            return REAL;
        }
        return NOT_A_NUMBER;
    }

    private long parseLong(int s, int e) {
        int i = s;
        boolean negative = false;
        if (b[i] == '+' || b[i] == '-') {
            negative = b[i] == '-';
            i++;
        }
        if (e - i > 18) {
            return Long.parseLong(new String(b, s, e - s, StandardCharsets.ISO_8859_1));
        }
        long v = 0;
        for (; i < e; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return negative ? -v : v;
    }

    private double parseDouble(int s, int e) {
        String w = new String(b, s, e - s, StandardCharsets.ISO_8859_1);
        String lower = w.toLowerCase(java.util.Locale.ROOT);
        boolean negative = lower.startsWith("-");
        if (lower.contains("#inf") || lower.endsWith("inf") || lower.endsWith("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (lower.contains("#") || lower.endsWith("nan")) {
            return Double.NaN;
        }
        return Double.parseDouble(w);
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Bytes of names, numbers and bare words: anything but blanks, control characters and {@code , : { } " ;}. */
    private static boolean isWordByte(byte c) {
        if (c < 0) {
            return true; // UTF-8 continuation and lead bytes
        }
        if (c <= ' ' || c == 0x7F) {
            return false;
        }
        return c != ',' && c != ':' && c != '{' && c != '}' && c != '"' && c != ';';
    }

    private void skipWord() {
        while (pos < b.length && isWordByte(b[pos])) {
            pos++;
        }
    }

    /** Skips spaces and tabs, and with {@code newlines} also line breaks and {@code ;} comments. */
    private void skipSpace(boolean newlines) {
        while (pos < b.length) {
            byte c = b[pos];
            if (c == ' ' || c == '\t') {
                pos++;
            } else if (!newlines) {
                return;
            } else if (c == '\n') {
                newline(pos);
                pos++;
            } else if (c == '\r') {
                pos++;
            } else if (c == ';') {
                while (pos < b.length && b[pos] != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private void skipBom() {
        if (b.length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
            pos = 3;
            lineStart = 3;
        }
    }

    private void newline(int at) {
        line++;
        lineStart = at + 1;
    }

    private String here() {
        return "line " + line + ", column " + (pos - lineStart + 1);
    }

    private String found() {
        if (pos >= b.length) {
            return "the end of the file";
        }
        int c = b[pos] & 0xFF;
        return c > 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("the byte 0x%02X", c);
    }

    private String name(int at, int length) {
        String s = new String(b, at, length, StandardCharsets.UTF_8);
        String known = names.putIfAbsent(s, s);
        return known == null ? s : known;
    }
}

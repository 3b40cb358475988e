package io.posekit.asset.x;

import io.posekit.asset.ImportException;

/**
 * Tokens of the text format. Whitespace (and NUL padding), {@code //} and {@code #} comments to the end of the line
 * and the separators {@code ,} {@code ;} divide tokens; {@code {} and {@code }} are tokens of their own; a
 * {@code "} starts a string that runs to the next {@code "}; a {@code <} starts a GUID that runs to the next
 * {@code >}; anything else is a word (an identifier, a name or a number, told apart by where the parser is).
 *
 * <p>Numbers: integers are an optional sign and up to 10 digits; floats are decimal with an optional exponent,
 * and must be finite as float32. The C runtime's NaN spellings ({@code 1.#IND00}, {@code -1.#QNAN0}), which some
 * exporters wrote, are read as 0 and counted ({@link #nonNumbers()}) so the importer can warn.
 */
final class TextTokens extends XTokens {

    private final byte[] b;
    private final int end;
    private int pos;
    private int line = 1;
    private int nonNumbers;
    private final String suffix;

    /**
     * @param data the bytes holding the text from {@code start} to {@code end} (the file, or decompressed MSZIP output)
     * @param decompressed whether {@code data} is decompressed MSZIP output (positions in messages say so)
     */
    TextTokens(byte[] data, int start, int end, boolean decompressed) {
        this.b = data;
        this.pos = start;
        this.end = end;
        this.suffix = decompressed ? " of the decompressed text" : "";
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B || c == 0;
    }

    private static boolean isDelimiter(int c) {
        return isSpace(c) || c == ',' || c == ';' || c == '{' || c == '}' || c == '"';
    }

    /** Skips whitespace, comments and the separators. */
    private void skipSeparators() {
        while (pos < end) {
            int c = b[pos];
            if (c == '\n') {
                line++;
                pos++;
            } else if (isSpace(c) || c == ',' || c == ';') {
                pos++;
            } else if (c == '#' || (c == '/' && pos + 1 < end && b[pos + 1] == '/')) {
                while (pos < end && b[pos] != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    /** The end of the GUID starting at {@code pos} ({@code <…>} on one line), or −1 when it is not one. */
    private int guidEnd() {
        for (int i = pos + 1; i < end && i < pos + 64; i++) {
            int c = b[i];
            if (c == '>') {
                return i + 1;
            }
            if (c == '\n' || c == '{' || c == '}' || c == '"') {
                return -1;
            }
        }
        return -1;
    }

    private int wordEnd() {
        int i = pos;
        while (i < end && !isDelimiter(b[i])) {
            i++;
        }
        return i;
    }

    @Override
    Kind peek() {
        skipSeparators();
        if (pos >= end) {
            return Kind.END;
        }
        return switch (b[pos]) {
            case '{' -> Kind.OPEN;
            case '}' -> Kind.CLOSE;
            case '"' -> Kind.STRING;
            case '<' -> guidEnd() > 0 ? Kind.GUID : Kind.WORD;
            default -> Kind.WORD;
        };
    }

    @Override
    String take() {
        return switch (peek()) {
            case END -> throw ImportException.invalid("unexpected end of the data at " + location());
            case OPEN -> {
                pos++;
                yield "{";
            }
            case CLOSE -> {
                pos++;
                yield "}";
            }
            case STRING -> readString("a string");
            case GUID -> {
                int e = guidEnd();
                String guid = decode(b, pos, e - pos);
                pos = e;
                yield guid;
            }
            default -> {
                int e = wordEnd();
                String word = decode(b, pos, e - pos);
                pos = e;
                yield word;
            }
        };
    }

    @Override
    String peekWord() {
        peek();
        return decode(b, pos, wordEnd() - pos);
    }

    @Override
    void skip() {
        switch (peek()) {
            case END -> throw ImportException.invalid("unexpected end of the data at " + location());
            case OPEN, CLOSE -> pos++;
            case STRING -> stringEnd("a string");
            case GUID -> pos = guidEnd();
            default -> pos = wordEnd();
        }
    }

    /** Moves past the string starting at {@code pos}; returns its content's start and end. */
    private long stringEnd(String what) {
        int startLine = line;
        int from = pos + 1;
        int i = from;
        while (i < end && b[i] != '"') {
            if (b[i] == '\n') {
                line++;
            }
            i++;
        }
        if (i >= end) {
            throw ImportException.invalid(what + ": the string opened at line " + startLine + " is not closed");
        }
        pos = i + 1;
        return ((long) from << 32) | i;
    }

    @Override
    String readString(String what) {
        Kind k = peek();
        if (k != Kind.STRING) {
            throw ImportException.invalid(what + ": expected a quoted string at " + location() + ", found " + describeNext());
        }
        long span = stringEnd(what);
        int from = (int) (span >>> 32);
        int to = (int) span;
        return decode(b, from, to - from);
    }

    /** The number word at {@code pos} (after separators), or a failure naming what was expected. */
    private int numberWord(String what, String kind) {
        Kind k = peek();
        if (k != Kind.WORD) {
            throw ImportException.invalid(what + ": expected " + kind + " at " + location() + ", found " + describeNext());
        }
        return wordEnd();
    }

    @Override
    long readInt(String what) {
        int e = numberWord(what, "an integer");
        int i = pos;
        boolean negative = false;
        if (b[i] == '-' || b[i] == '+') {
            negative = b[i] == '-';
            i++;
        }
        int digits = e - i;
        long value = 0;
        boolean ok = digits > 0 && digits <= 10;
        for (int j = i; ok && j < e; j++) {
            int d = b[j] - '0';
            if (d < 0 || d > 9) {
                ok = false;
            } else {
                value = value * 10 + d;
            }
        }
        if (!ok || value > 0xFFFF_FFFFL || (negative && value > 0x8000_0000L)) {
            throw ImportException.invalid(what + ": expected an integer at " + location() + ", found "
                    + quote(decode(b, pos, e - pos)));
        }
        pos = e;
        return negative ? -value : value;
    }

    @Override
    float readFloat(String what) {
        int e = numberWord(what, "a number");
        int start = pos;
        if (!isDecimal(start, e)) {
            if (isCRuntimeNaN(start, e)) {
                pos = e;
                nonNumbers++;
                return 0f;
            }
            throw ImportException.invalid(what + ": expected a number at " + location() + ", found "
                    + quote(decode(b, start, e - start)));
        }
        float value = (float) Double.parseDouble(new String(b, start, e - start, java.nio.charset.StandardCharsets.ISO_8859_1));
        if (!Float.isFinite(value)) {
            throw ImportException.invalid(what + ": " + quote(decode(b, start, e - start)) + " at " + location()
                    + " is beyond the float range");
        }
        pos = e;
        return value;
    }

    /** {@code [+-]? digits [. digits] [(e|E) [+-]? digits]} with at least one mantissa digit. */
    private boolean isDecimal(int from, int to) {
        int i = from;
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        int mantissa = 0;
        while (i < to && b[i] >= '0' && b[i] <= '9') {
            i++;
            mantissa++;
        }
        if (i < to && b[i] == '.') {
            i++;
            while (i < to && b[i] >= '0' && b[i] <= '9') {
                i++;
                mantissa++;
            }
        }
        if (mantissa == 0) {
            return false;
        }
        if (i < to && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < to && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            int exponent = 0;
            while (i < to && b[i] >= '0' && b[i] <= '9' && exponent < 6) {
                i++;
                exponent++;
            }
            if (exponent == 0) {
                return false;
            }
        }
        return i == to;
    }

    /** MSVC's printf spellings of NaN: {@code [-]1.#IND…} and {@code [-]1.#QNAN…}. */
    private boolean isCRuntimeNaN(int from, int to) {
        if (to - from > 24) {
            return false;
        }
        String w = new String(b, from, to - from, java.nio.charset.StandardCharsets.ISO_8859_1);
        return CRT_NAN.matcher(w).matches();
    }

    private static final java.util.regex.Pattern CRT_NAN = java.util.regex.Pattern.compile("-?1\\.#(IND|QNAN)[0-9A-Z]*");

    @Override
    String location() {
        return "line " + line + suffix;
    }

    @Override
    String describeNext() {
        Kind k = peek();
        return switch (k) {
            case END -> "the end of the data";
            case OPEN -> "'{'";
            case CLOSE -> "'}'";
            case STRING -> "a string";
            case GUID -> "a GUID";
            default -> quote(decode(b, pos, wordEnd() - pos));
        };
    }

    @Override
    long remainingBytes() {
        return end - pos;
    }

    @Override
    int minBytesPerInt() {
        return 2;
    }

    @Override
    int minBytesPerFloat() {
        return 2;
    }

    @Override
    int nonNumbers() {
        return nonNumbers;
    }
}

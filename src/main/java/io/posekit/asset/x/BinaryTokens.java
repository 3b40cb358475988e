package io.posekit.asset.x;

import io.posekit.asset.ImportException;

/**
 * Tokens of the binary format: little-endian 16-bit token codes, some followed by a record. NAME (1) and STRING (2)
 * carry a 32-bit length and the bytes (a STRING then a 16-bit terminator token, {@code ;} or {@code ,}); INTEGER
 * (3) one 32-bit value; GUID (5) 16 bytes; INTEGER_LIST (6) and FLOAT_LIST (7) a 32-bit count and that many 32-bit
 * integers or floats of the header's float size. The other codes (10–20 punctuation, 31 {@code template}, 40–52
 * template type keywords) stand alone; any other code is not a token.
 *
 * <p>Data values are read from the lists one at a time, a list spanning as many template members as it holds
 * (exporters merge consecutive integers into one list): an integer where a float list is being read, or the
 * reverse, is an error. When the parser moves on to structure, values of the current list it did not read are
 * skipped.
 */
final class BinaryTokens extends XTokens {

    static final int NAME = 1;
    static final int STRING = 2;
    static final int INTEGER = 3;
    static final int GUID = 5;
    static final int INTEGER_LIST = 6;
    static final int FLOAT_LIST = 7;
    static final int OPEN = 0x0A;
    static final int CLOSE = 0x0B;
    static final int COMMA = 0x13;
    static final int SEMICOLON = 0x14;
    static final int TEMPLATE = 0x1F;

    private final byte[] b;
    private final int end;
    private final int floatSize;
    private final String suffix;
    private int pos;
    /** The list being read: INTEGER_LIST, FLOAT_LIST or 0, and how many of its values are left. */
    private int list;
    private long listLeft;

    /**
     * @param data the bytes holding the token stream from {@code start} to {@code end} (the file, or the
     *     decompressed MSZIP output)
     * @param floatBits 32 or 64, from the header
     * @param decompressed whether {@code data} is decompressed MSZIP output (positions in messages say so)
     */
    BinaryTokens(byte[] data, int start, int end, int floatBits, boolean decompressed) {
        this.b = data;
        this.pos = start;
        this.end = end;
        this.floatSize = floatBits / 8;
        this.suffix = decompressed ? " of the decompressed data" : "";
    }

    private int word(int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private long dword(int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }

    /** The code of the token at {@code pos}, or −1 at the end of the data. */
    private int code() {
        if (pos >= end) {
            return -1;
        }
        if (end - pos < 2) {
            throw ImportException.invalid("the data ends in the middle of a token at " + location());
        }
        return word(pos);
    }

    private void discardList() {
        if (listLeft > 0) {
            pos += (int) (listLeft * (list == FLOAT_LIST ? floatSize : 4));
        }
        list = 0;
        listLeft = 0;
    }

    private void skipSeparators() {
        int c;
        while ((c = code()) == COMMA || c == SEMICOLON) {
            pos += 2;
        }
    }

    @Override
    Kind peek() {
        discardList();
        skipSeparators();
        int c = code();
        return switch (c) {
            case -1 -> Kind.END;
            case NAME, TEMPLATE -> Kind.WORD;
            case STRING -> Kind.STRING;
            case OPEN -> Kind.OPEN;
            case CLOSE -> Kind.CLOSE;
            case GUID -> Kind.GUID;
            case INTEGER, INTEGER_LIST, FLOAT_LIST -> Kind.DATA;
            default -> {
                if ((c >= 0x0C && c <= 0x12) || (c >= 0x28 && c <= 0x34)) {
                    yield Kind.DATA;
                }
                throw ImportException.invalid("0x" + String.format("%04X", c) + " at " + location()
                        + " is not a DirectX .x binary token");
            }
        };
    }

    /** Checks that {@code n} bytes follow {@code at}. */
    private void need(int at, long n, String what) {
        if (n < 0 || n > end - at) {
            throw ImportException.invalid(what + " at " + location() + " needs " + n + " bytes but "
                    + Math.max(0, end - at) + " are left");
        }
    }

    @Override
    String take() {
        Kind k = peek();
        int c = code();
        switch (k) {
            case END -> throw ImportException.invalid("unexpected end of the data at " + location());
            case WORD -> {
                if (c == TEMPLATE) {
                    pos += 2;
                    return "template";
                }
                need(pos + 2, 4, "a name");
                long n = dword(pos + 2);
                need(pos + 6, n, "a name of " + n + " bytes");
                String name = decode(b, pos + 6, (int) n);
                pos += 6 + (int) n;
                return name;
            }
            case STRING -> {
                return readString("a string");
            }
            case OPEN -> {
                pos += 2;
                return "{";
            }
            case CLOSE -> {
                pos += 2;
                return "}";
            }
            case GUID -> {
                need(pos + 2, 16, "a GUID");
                String guid = guidText(pos + 2);
                pos += 18;
                return guid;
            }
            default -> {
                String what = describeNext();
                skip();
                return what;
            }
        }
    }

    @Override
    String peekWord() {
        if (peek() != Kind.WORD) {
            return "";
        }
        if (code() == TEMPLATE) {
            return "template";
        }
        need(pos + 2, 4, "a name");
        long n = dword(pos + 2);
        need(pos + 6, n, "a name of " + n + " bytes");
        return decode(b, pos + 6, (int) n);
    }

    @Override
    void skip() {
        Kind k = peek();
        if (k == Kind.END) {
            throw ImportException.invalid("unexpected end of the data at " + location());
        }
        int c = code();
        switch (c) {
            case NAME -> {
                need(pos + 2, 4, "a name");
                long n = dword(pos + 2);
                need(pos + 6, n, "a name of " + n + " bytes");
                pos += 6 + (int) n;
            }
            case STRING -> readString("a string");
            case INTEGER -> {
                need(pos + 2, 4, "an integer");
                pos += 6;
            }
            case GUID -> {
                need(pos + 2, 16, "a GUID");
                pos += 18;
            }
            case INTEGER_LIST, FLOAT_LIST -> {
                need(pos + 2, 4, "a list");
                long n = dword(pos + 2);
                long bytes = n * (c == FLOAT_LIST ? floatSize : 4);
                need(pos + 6, bytes, "a list of " + n + " values");
                pos += 6 + (int) bytes;
            }
            default -> pos += 2;
        }
    }

    private String guidText(int at) {
        return String.format("<%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x>", dword(at), word(at + 4), word(at + 6),
                b[at + 8], b[at + 9], b[at + 10], b[at + 11], b[at + 12], b[at + 13], b[at + 14], b[at + 15]);
    }

    /** Starts the next value list of {@code kind} (single integers count as a list of one), or fails. */
    private void startList(int kind, String what, String expected) {
        while (true) {
            discardList();
            skipSeparators();
            int c = code();
            if (c == kind || (kind == INTEGER_LIST && c == INTEGER)) {
                if (c == INTEGER) {
                    need(pos + 2, 4, what + ": an integer");
                    list = INTEGER_LIST;
                    listLeft = 1;
                    pos += 2;
                    return;
                }
                need(pos + 2, 4, what + ": a list");
                long n = dword(pos + 2);
                long bytes = n * (kind == FLOAT_LIST ? floatSize : 4);
                need(pos + 6, bytes, what + ": a list of " + n + " values");
                pos += 6;
                list = kind;
                listLeft = n;
                if (n > 0) {
                    return;
                }
                continue;
            }
            throw ImportException.invalid(what + ": expected " + expected + " at " + location() + ", found " + describeNext());
        }
    }

    @Override
    long readInt(String what) {
        if (list == FLOAT_LIST && listLeft > 0) {
            throw ImportException.invalid(what + ": expected an integer at " + location() + ", found a float list value");
        }
        if (list != INTEGER_LIST || listLeft == 0) {
            startList(INTEGER_LIST, what, "an integer");
        }
        long value = dword(pos);
        pos += 4;
        listLeft--;
        return value;
    }

    @Override
    float readFloat(String what) {
        if (list == INTEGER_LIST && listLeft > 0) {
            throw ImportException.invalid(what + ": expected a float at " + location() + ", found an integer list value");
        }
        if (list != FLOAT_LIST || listLeft == 0) {
            startList(FLOAT_LIST, what, "a float");
        }
        double value;
        if (floatSize == 8) {
            value = Double.longBitsToDouble(dword(pos) | dword(pos + 4) << 32);
        } else {
            value = Float.intBitsToFloat((int) dword(pos));
        }
        if (!Float.isFinite((float) value)) {
            throw ImportException.invalid(what + ": the float " + value + " at " + location() + " is not a finite float32");
        }
        pos += floatSize;
        listLeft--;
        return (float) value;
    }

    @Override
    String readString(String what) {
        if (listLeft > 0) {
            throw ImportException.invalid(what + ": expected a string at " + location() + ", found a "
                    + (list == FLOAT_LIST ? "float" : "integer") + " list value");
        }
        discardList();
        skipSeparators();
        if (code() != STRING) {
            throw ImportException.invalid(what + ": expected a string at " + location() + ", found " + describeNext());
        }
        need(pos + 2, 4, "a string");
        long n = dword(pos + 2);
        need(pos + 6, n, "a string of " + n + " bytes");
        String s = decode(b, pos + 6, (int) n);
        pos += 6 + (int) n;
        // the terminator token (';' or ',') that follows is skipped as a separator
        return s;
    }

    @Override
    String location() {
        return "byte " + pos + suffix;
    }

    @Override
    String describeNext() {
        if (listLeft > 0) {
            return "a value of " + (list == FLOAT_LIST ? "a float" : "an integer") + " list";
        }
        int c = pos >= end ? -1 : end - pos < 2 ? -2 : word(pos);
        return switch (c) {
            case -1 -> "the end of the data";
            case -2 -> "a cut-off token";
            case NAME -> "a name";
            case STRING -> "a string";
            case INTEGER -> "an integer";
            case GUID -> "a GUID";
            case INTEGER_LIST -> "an integer list";
            case FLOAT_LIST -> "a float list";
            case OPEN -> "'{'";
            case CLOSE -> "'}'";
            case TEMPLATE -> "'template'";
            default -> "token 0x" + String.format("%04X", c);
        };
    }

    @Override
    long remainingBytes() {
        return end - pos;
    }

    @Override
    int minBytesPerInt() {
        return 4;
    }

    @Override
    int minBytesPerFloat() {
        return floatSize;
    }
}

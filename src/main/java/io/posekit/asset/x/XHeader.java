package io.posekit.asset.x;

import io.posekit.asset.ImportException;

/**
 * The 16-byte header of a DirectX {@code .x} file: the magic {@code xof }, a four-digit version ({@code 0302},
 * {@code 0303}: major 03, any minor), the format ({@code txt }, {@code bin }, and their MSZIP-compressed forms
 * {@code tzip}, {@code bzip}) and the float size in bits ({@code 0032} or {@code 0064}, which only binary data
 * uses).
 *
 * @param offset where the header starts in the file (3 after a UTF-8 byte order mark, else 0)
 * @param major the major version (always 3)
 * @param minor the minor version
 * @param binary whether the data is the binary token stream rather than text
 * @param compressed whether the data after the header is MSZIP-compressed
 * @param floatBits 32 or 64
 */
record XHeader(int offset, int major, int minor, boolean binary, boolean compressed, int floatBits) {

    /** Bytes of the header itself. */
    static final int LENGTH = 16;

    /** Where the data after the header starts. */
    int dataStart() {
        return offset + LENGTH;
    }

    /** The format as written in the header, e.g. {@code tzip}. */
    String format() {
        return (binary ? (compressed ? "bzip" : "bin ") : (compressed ? "tzip" : "txt ")).strip();
    }

    /**
     * Reads and checks the header of {@code file}.
     *
     * @throws ImportException (invalid) for a missing or malformed header, (unsupported) for UTF-16 text or a
     *     major version other than 3
     */
    static XHeader parse(byte[] file, String name) {
        int n = file.length;
        if (n >= 2 && ((file[0] == (byte) 0xFF && file[1] == (byte) 0xFE) || (file[0] == (byte) 0xFE && file[1] == (byte) 0xFF))) {
            throw ImportException.unsupported(name + " is UTF-16 text; DirectX .x files are read as ASCII/UTF-8");
        }
        int offset = n >= 3 && file[0] == (byte) 0xEF && file[1] == (byte) 0xBB && file[2] == (byte) 0xBF ? 3 : 0;
        if (n - offset < LENGTH) {
            throw ImportException.invalid(name + " has " + (n - offset) + " bytes, too few for the 16-byte DirectX .x header"
                    + " ('xof 0303txt 0032')");
        }
        String magic = ascii(file, offset, 4);
        if (!magic.equals("xof ")) {
            throw ImportException.invalid(name + " does not start with the DirectX .x magic 'xof ' (it starts with '"
                    + printable(file, offset, 4) + "')");
        }
        int major = digits(file, offset + 4, 2);
        int minor = digits(file, offset + 6, 2);
        if (major < 0 || minor < 0) {
            throw ImportException.invalid(name + ": the DirectX .x version '" + printable(file, offset + 4, 4)
                    + "' (bytes 4–7 of the header) is not four digits such as 0303");
        }
        if (major != 3) {
            throw ImportException.unsupported(name + ": DirectX .x version " + printable(file, offset + 4, 4)
                    + " is not supported (0302 and 0303 are)");
        }
        String format = ascii(file, offset + 8, 4);
        boolean binary;
        boolean compressed;
        switch (format) {
            case "txt " -> {
                binary = false;
                compressed = false;
            }
            case "bin " -> {
                binary = true;
                compressed = false;
            }
            case "tzip" -> {
                binary = false;
                compressed = true;
            }
            case "bzip" -> {
                binary = true;
                compressed = true;
            }
            default -> throw ImportException.invalid(name + ": the DirectX .x format '" + printable(file, offset + 8, 4)
                    + "' (bytes 8–11 of the header) is not 'txt ', 'bin ', 'tzip' or 'bzip'");
        }
        int floatBits = digits(file, offset + 12, 4);
        if (floatBits != 32 && floatBits != 64) {
            throw ImportException.invalid(name + ": the DirectX .x float size '" + printable(file, offset + 12, 4)
                    + "' (bytes 12–15 of the header) is not '0032' or '0064'");
        }
        return new XHeader(offset, major, minor, binary, compressed, floatBits);
    }

    private static String ascii(byte[] b, int from, int length) {
        return new String(b, from, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** The bytes as text with anything outside printable ASCII escaped, for messages. */
    static String printable(byte[] b, int from, int length) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < from + length && i < b.length; i++) {
            int c = b[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\'') {
                s.append((char) c);
            } else {
                s.append(String.format("\\x%02X", c));
            }
        }
        return s.toString();
    }

    /** The decimal value of {@code length} ASCII digits, or −1 when one is not a digit. */
    private static int digits(byte[] b, int from, int length) {
        int value = 0;
        for (int i = from; i < from + length; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }
}

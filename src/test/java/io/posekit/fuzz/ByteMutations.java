package io.posekit.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Format-blind mutations of a file's bytes (bit flips, byte sets, truncation, splices, duplicated and deleted
 * ranges, lying length fields), and token- and line-level edits of text files (numbers replaced by interesting
 * values, lines deleted, duplicated, swapped or repeated, structural characters inserted). Every method is a pure
 * function of its input and the random source, and appends a description of what it did to {@code log}.
 */
final class ByteMutations {

    /** 32-bit values that break length and count arithmetic: zero, sign flips, powers of two, the extremes. */
    static final long[] INTERESTING_INTS = {0, 1, 2, 3, 4, 7, 8, 16, 64, 0x7f, 0x80, 0xff, 0x100, 0x3ff, 0x7fff,
        0x8000, 0xffff, 0x10000, 0x100000, 0x1000000, 1_000_000, 100_000_000, 0x3fffffff, 0x40000000, 0x7ffffffe,
        0x7fffffffL, 0x80000000L, 0xfffffffeL, 0xffffffffL};

    /** Bytes that are structure in some format: delimiters, quotes, signs, digits, NUL, high bits. */
    private static final byte[] INTERESTING_BYTES = {0, (byte) 0xff, 0x7f, (byte) 0x80, 1, '{', '}', '[', ']', '(', ')',
        '"', '\'', ';', ',', ':', '-', '+', '.', 'e', 'E', '0', '9', '\n', '\r', '\t', ' ', '<', '>', '&', '/', '*',
        '#', '\\', (byte) 0xc3, (byte) 0xef};

    /** Number tokens as text formats write them (a sign, digits, a fraction, an exponent). */
    private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_0-9.])[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z_0-9]*");

    /**
     * Number spellings that parsers meet badly: overflow, underflow, non-finite, malformed (among them the UTF-8 bytes
     * of an Arabic-Indic digit, as ISO-8859-1 characters).
     */
    static final String[] INTERESTING_NUMBERS = {"0", "-0", "1", "-1", "2", "0.5", "-0.5", "255", "256", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "9223372036854775807",
        "9223372036854775808", "99999999999999999999999999", "1e9", "1e38", "3.5e38", "1e308", "1e309", "-1e309",
        "1e-45", "1e-320", "1e-400", "NaN", "nan", "-nan(ind)", "inf", "-inf", "Infinity", "1.#INF", "1.#QNAN",
        "0x10", "1e", "1e+", "--1", "+-1", ".", "-", "1..2", "1,5", "\u00d9\u00a1", "1_000", "0777", "1.0f"};

    /** The most bytes one repeating edit adds: mutants stay far below the upload limit and the fuzzer's heap. */
    static final int MAX_GROWTH = 4 << 20;

    private ByteMutations() {
    }

    /** One format-blind mutation chosen at random; {@code lieWeight} scales how often a length field is lied about. */
    static byte[] mutate(byte[] in, byte[] donor, double lieWeight, SplittableRandom r, List<String> log) {
        double[] weights = {2, 2, 1.5, 1, 1, 1, 1, 3 * lieWeight, 1};
        return switch (pick(weights, r)) {
            case 0 -> flipBits(in, r, log);
            case 1 -> setBytes(in, r, log);
            case 2 -> truncate(in, r, log);
            case 3 -> splice(in, donor, r, log);
            case 4 -> copyWithin(in, r, log);
            case 5 -> duplicateRange(in, r, log);
            case 6 -> deleteRange(in, r, log);
            case 7 -> lieAboutLength(in, r, log);
            default -> insertBytes(in, r, log);
        };
    }

    static byte[] flipBits(byte[] in, SplittableRandom r, List<String> log) {
        if (in.length == 0) {
            return insertBytes(in, r, log);
        }
        byte[] out = in.clone();
        int n = 1 + r.nextInt(r.nextInt(4) == 0 ? 32 : 4);
        List<String> at = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int pos = r.nextInt(out.length);
            int bit = r.nextInt(8);
            out[pos] ^= (byte) (1 << bit);
            at.add(pos + ":" + bit);
        }
        log.add("flip bits " + String.join(",", at));
        return out;
    }

    static byte[] setBytes(byte[] in, SplittableRandom r, List<String> log) {
        if (in.length == 0) {
            return insertBytes(in, r, log);
        }
        byte[] out = in.clone();
        int n = 1 + r.nextInt(8);
        List<String> at = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int pos = r.nextInt(out.length);
            byte v = r.nextBoolean() ? INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)] : (byte) r.nextInt(256);
            out[pos] = v;
            at.add(pos + "=0x" + Integer.toHexString(v & 0xff));
        }
        log.add("set bytes " + String.join(",", at));
        return out;
    }

    static byte[] truncate(byte[] in, SplittableRandom r, List<String> log) {
        // mostly near the end, where a parser has committed to most of the structure
        int length = in.length == 0 ? 0 : r.nextBoolean() ? r.nextInt(in.length) : in.length - 1 - r.nextInt(Math.min(in.length, 64));
        log.add("truncate to " + length + " of " + in.length);
        return Arrays.copyOf(in, length);
    }

    /** The head of {@code in} joined to the tail of another valid file of the same format. */
    static byte[] splice(byte[] in, byte[] donor, SplittableRandom r, List<String> log) {
        int a = r.nextInt(in.length + 1);
        int b = r.nextInt(donor.length + 1);
        log.add("splice [0," + a + ") + donor [" + b + "," + donor.length + ")");
        return concat(Arrays.copyOf(in, a), Arrays.copyOfRange(donor, b, donor.length));
    }

    /** A range of the file copied over another place of it (self-splice). */
    static byte[] copyWithin(byte[] in, SplittableRandom r, List<String> log) {
        if (in.length < 2) {
            return flipBits(in, r, log);
        }
        int len = 1 + r.nextInt(Math.min(in.length - 1, 256));
        int from = r.nextInt(in.length - len + 1);
        int to = r.nextInt(in.length - len + 1);
        byte[] out = in.clone();
        System.arraycopy(in, from, out, to, len);
        log.add("copy [" + from + "," + (from + len) + ") over " + to);
        return out;
    }

    static byte[] duplicateRange(byte[] in, SplittableRandom r, List<String> log) {
        if (in.length == 0) {
            return insertBytes(in, r, log);
        }
        int len = 1 + r.nextInt(Math.min(in.length, 512));
        int from = r.nextInt(in.length - len + 1);
        int times = r.nextInt(8) == 0 ? 2 + r.nextInt(200) : 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + len * times);
        out.write(in, 0, from + len);
        for (int i = 0; i < times; i++) {
            out.write(in, from, len);
        }
        out.write(in, from + len, in.length - from - len);
        log.add("duplicate [" + from + "," + (from + len) + ") ×" + times);
        return out.toByteArray();
    }

    static byte[] deleteRange(byte[] in, SplittableRandom r, List<String> log) {
        if (in.length == 0) {
            return insertBytes(in, r, log);
        }
        int len = 1 + r.nextInt(Math.min(in.length, r.nextBoolean() ? 8 : 512));
        int from = r.nextInt(in.length - len + 1);
        log.add("delete [" + from + "," + (from + len) + ")");
        return concat(Arrays.copyOf(in, from), Arrays.copyOfRange(in, from + len, in.length));
    }

    static byte[] insertBytes(byte[] in, SplittableRandom r, List<String> log) {
        int n = 1 + r.nextInt(16);
        byte[] extra = new byte[n];
        for (int i = 0; i < n; i++) {
            extra[i] = r.nextBoolean() ? INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)] : (byte) r.nextInt(256);
        }
        int at = r.nextInt(in.length + 1);
        log.add("insert " + n + " bytes at " + at);
        return concat(concat(Arrays.copyOf(in, at), extra), Arrays.copyOfRange(in, at, in.length));
    }

    /**
     * A length, count or offset field that lies: a little-endian integer (4 bytes mostly, else 2 or 8), usually in
     * the first 256 bytes where headers live, aligned to its width unless the format packs its records (one time
     * in three: FBX's record headers, the .x binary tokens), overwritten with an interesting value, the file length
     * ±1, or its own value nudged.
     */
    static byte[] lieAboutLength(byte[] in, SplittableRandom r, List<String> log) {
        int width = switch (r.nextInt(10)) {
            case 0 -> 2;
            case 1 -> 8;
            default -> 4;
        };
        if (in.length < width) {
            return insertBytes(in, r, log);
        }
        int step = r.nextInt(3) == 0 ? 1 : width;
        int slots = (in.length - width) / step + 1;
        int headerSlots = Math.max(1, Math.min(slots, 256 / step));
        int pos = step * (r.nextBoolean() ? r.nextInt(headerSlots) : r.nextInt(slots));
        long current = readLe(in, pos, width);
        long value = switch (r.nextInt(9)) {
            case 0, 1, 2 -> INTERESTING_INTS[r.nextInt(INTERESTING_INTS.length)];
            case 3 -> in.length + (r.nextBoolean() ? 1 : -1);
            case 4 -> current + (r.nextBoolean() ? 1 : -1);
            case 5 -> current * 2;
            case 6 -> current + 0x10000;
            case 7 -> -current;
            default -> r.nextBoolean() ? r.nextInt(64) : r.nextLong();
        };
        byte[] out = in.clone();
        writeLe(out, pos, width, value);
        log.add("length lie: u" + (8 * width) + " at " + pos + " " + current + " → " + readLe(out, pos, width));
        return out;
    }

    /** One token- or line-level edit of a text file (bytes taken as ISO-8859-1, so nothing is lost). */
    static byte[] mutateText(byte[] in, SplittableRandom r, List<String> log) {
        String text = new String(in, StandardCharsets.ISO_8859_1);
        double[] weights = {4, 2, 1, 1, 1, 1, 0.5, 1, 1};
        String out = switch (pick(weights, r)) {
            case 0 -> replaceNumber(text, r, log);
            case 1 -> nudgeNumber(text, r, log);
            case 2 -> deleteToken(text, r, log);
            case 3 -> duplicateLine(text, r, log);
            case 4 -> deleteLine(text, r, log);
            case 5 -> swapLines(text, r, log);
            case 6 -> repeatLine(text, r, log);
            case 7 -> insertStructure(text, r, log);
            default -> replaceWord(text, r, log);
        };
        return out.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A number token replaced by one of {@link #INTERESTING_NUMBERS}. */
    static String replaceNumber(String text, SplittableRandom r, List<String> log) {
        int[] token = randomMatch(NUMBER, text, r);
        if (token == null) {
            return insertStructure(text, r, log);
        }
        String value = INTERESTING_NUMBERS[r.nextInt(INTERESTING_NUMBERS.length)];
        log.add("number at " + token[0] + " " + text.substring(token[0], token[1]) + " → " + value);
        return text.substring(0, token[0]) + value + text.substring(token[1]);
    }

    /** A number token off by one, scaled up, negated or given a fraction. */
    static String nudgeNumber(String text, SplittableRandom r, List<String> log) {
        int[] token = randomMatch(NUMBER, text, r);
        if (token == null) {
            return insertStructure(text, r, log);
        }
        String old = text.substring(token[0], token[1]);
        double v = Double.parseDouble(old);
        boolean integral = old.matches("[-+]?\\d+");
        String value = switch (r.nextInt(6)) {
            case 0 -> integral ? Long.toString((long) v + 1) : fmt(v + 1);
            case 1 -> integral ? Long.toString((long) v - 1) : fmt(v - 1);
            case 2 -> integral ? Long.toString((long) v * 1000) : fmt(v * 1e6);
            case 3 -> integral ? Long.toString(-(long) v) : fmt(-v);
            case 4 -> fmt(v + 0.5);
            default -> integral ? Long.toString((long) v * 65536) : fmt(v * 1e30);
        };
        log.add("number at " + token[0] + " " + old + " → " + value);
        return text.substring(0, token[0]) + value + text.substring(token[1]);
    }

    static String deleteToken(String text, SplittableRandom r, List<String> log) {
        int[] token = randomMatch(r.nextBoolean() ? NUMBER : WORD, text, r);
        if (token == null) {
            return insertStructure(text, r, log);
        }
        log.add("delete token at " + token[0] + " '" + text.substring(token[0], token[1]) + "'");
        return text.substring(0, token[0]) + text.substring(token[1]);
    }

    static String duplicateLine(String text, SplittableRandom r, List<String> log) {
        List<String> lines = lines(text);
        int i = r.nextInt(lines.size());
        lines.add(i, lines.get(i));
        log.add("duplicate line " + (i + 1));
        return String.join("\n", lines);
    }

    static String deleteLine(String text, SplittableRandom r, List<String> log) {
        List<String> lines = lines(text);
        int i = r.nextInt(lines.size());
        lines.remove(i);
        log.add("delete line " + (i + 1));
        return String.join("\n", lines);
    }

    static String swapLines(String text, SplittableRandom r, List<String> log) {
        List<String> lines = lines(text);
        int i = r.nextInt(lines.size());
        int j = r.nextInt(lines.size());
        String t = lines.get(i);
        lines.set(i, lines.get(j));
        lines.set(j, t);
        log.add("swap lines " + (i + 1) + " and " + (j + 1));
        return String.join("\n", lines);
    }

    /**
     * A line repeated many times (a frame, a vertex, a joint), making the counts wrong or the file long; never by
     * more than {@link #MAX_GROWTH} bytes (a glTF's JSON is one line, maybe already made huge by another edit).
     */
    static String repeatLine(String text, SplittableRandom r, List<String> log) {
        List<String> lines = lines(text);
        int i = r.nextInt(lines.size());
        int times = Math.min(2 + r.nextInt(r.nextBoolean() ? 50 : 5000), Math.max(1, MAX_GROWTH / (lines.get(i).length() + 1)));
        for (int k = 0; k < times; k++) {
            lines.add(i, lines.get(i));
        }
        log.add("repeat line " + (i + 1) + " ×" + times);
        return String.join("\n", lines);
    }

    static String insertStructure(String text, SplittableRandom r, List<String> log) {
        String[] pieces = {"{", "}", "(", ")", "[", "]", "\"", ";", ",", "\n", "//", "/*", "\0", "{}", "\"\"", " -",
            "\u00ff", "\r"};
        String piece = pieces[r.nextInt(pieces.length)];
        int at = r.nextInt(text.length() + 1);
        log.add("insert '" + printable(piece) + "' at " + at);
        return text.substring(0, at) + piece + text.substring(at);
    }

    /** An identifier replaced by another identifier of the same file (a keyword where a name goes, a name reused). */
    static String replaceWord(String text, SplittableRandom r, List<String> log) {
        List<int[]> words = matches(WORD, text);
        if (words.size() < 2) {
            return insertStructure(text, r, log);
        }
        int[] target = words.get(r.nextInt(words.size()));
        int[] source = words.get(r.nextInt(words.size()));
        String word = text.substring(source[0], source[1]);
        log.add("word at " + target[0] + " '" + text.substring(target[0], target[1]) + "' → '" + word + "'");
        return text.substring(0, target[0]) + word + text.substring(target[1]);
    }

    /** Index into {@code weights} chosen with probability proportional to its weight. */
    static int pick(double[] weights, SplittableRandom r) {
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double x = r.nextDouble(total);
        for (int i = 0; i < weights.length; i++) {
            x -= weights[i];
            if (x < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static long readLe(byte[] b, int pos, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = (v << 8) | (b[pos + i] & 0xff);
        }
        return v;
    }

    static void writeLe(byte[] b, int pos, int width, long value) {
        for (int i = 0; i < width; i++) {
            b[pos + i] = (byte) (value >>> (8 * i));
        }
    }

    private static int[] randomMatch(Pattern p, String text, SplittableRandom r) {
        List<int[]> all = matches(p, text);
        return all.isEmpty() ? null : all.get(r.nextInt(all.size()));
    }

    private static List<int[]> matches(Pattern p, String text) {
        List<int[]> all = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            all.add(new int[] {m.start(), m.end()});
        }
        return all;
    }

    private static List<String> lines(String text) {
        return new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%s", v);
    }

    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 || c > 0x7e ? String.format(Locale.ROOT, "\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}

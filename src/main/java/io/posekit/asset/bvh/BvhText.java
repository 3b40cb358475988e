package io.posekit.asset.bvh;

import io.posekit.asset.ImportException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A cursor over the text of a BVH file with 1-based line numbers: whitespace-separated tokens across lines (for
 * the HIERARCHY) and content lines with their tokens (for MOTION). Lines end at {@code \n}, {@code \r\n} or a lone
 * {@code \r}; spaces, tabs, form feeds and vertical tabs separate tokens. Blank lines are skipped everywhere.
 *
 * <p>The MOTION accessors work on positions in the text instead of substrings, so reading millions of frame
 * values allocates nothing per token except what {@link Double#parseDouble} needs. Not thread-safe.
 */
final class BvhText {

    private static final int QUOTE_MAX = 40;

    private final String text;
    private final int length;
    private int pos;
    private int line = 1;
    private int tokenLine = 1;
    private int tokenStart;
    private int tokenEnd;

    private BvhText(String text) {
        this.text = text;
        this.length = text.length();
    }

    /** The text of {@code bytes}, decoded as UTF-8 (malformed bytes become U+FFFD), a byte order mark skipped. */
    static BvhText of(byte[] bytes) {
        BvhText t = new BvhText(new String(bytes, StandardCharsets.UTF_8));
        if (t.length > 0 && t.text.charAt(0) == '\uFEFF') {
            t.pos = 1;
        }
        return t;
    }

    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\f' || c == '\u000B';
    }

    private static boolean isBreak(char c) {
        return c == '\n' || c == '\r';
    }

    /** The line the cursor is on (after a token: the token's line). */
    int line() {
        return line;
    }

    /** The line of the token {@link #next()} or {@link #nextInLine()} returned last. */
    int tokenLine() {
        return tokenLine;
    }

    /** Consumes one line break at the cursor, counting it. */
    private void consumeBreak() {
        char c = text.charAt(pos++);
        if (c == '\r' && pos < length && text.charAt(pos) == '\n') {
            pos++;
        }
        line++;
    }

    /** The next token on any line, or {@code null} at the end of the text. */
    String next() {
        while (pos < length) {
            char c = text.charAt(pos);
            if (isSpace(c)) {
                pos++;
            } else if (isBreak(c)) {
                consumeBreak();
            } else {
                break;
            }
        }
        if (pos == length) {
            tokenLine = line;
            return null;
        }
        return scanToken();
    }

    private String scanToken() {
        tokenLine = line;
        tokenStart = pos;
        while (pos < length && !isSpace(text.charAt(pos)) && !isBreak(text.charAt(pos))) {
            pos++;
        }
        tokenEnd = pos;
        return text.substring(tokenStart, tokenEnd);
    }

    /** The remaining tokens of the current line (the line break is not consumed). */
    List<String> restOfLine() {
        List<String> tokens = new ArrayList<>(2);
        while (nextInLine()) {
            tokens.add(text.substring(tokenStart, tokenEnd));
        }
        return tokens;
    }

    /**
     * Moves to the next token, across line breaks and blank lines, without reading it: the cursor stops on its
     * first character (the current line's, when a token is left on it; callers read a line to its end first).
     *
     * @return false at the end of the text
     */
    boolean nextContentLine() {
        while (pos < length) {
            char c = text.charAt(pos);
            if (isSpace(c)) {
                pos++;
            } else if (isBreak(c)) {
                consumeBreak();
            } else {
                return true;
            }
        }
        return false;
    }

    /**
     * Finds the next token on the current line, for {@link #token()}, {@link #tokenIsDecimal()} and the like.
     *
     * @return false at the end of the line (the line break is not consumed) or of the text
     */
    boolean nextInLine() {
        while (pos < length && isSpace(text.charAt(pos))) {
            pos++;
        }
        if (pos == length || isBreak(text.charAt(pos))) {
            return false;
        }
        scanToken();
        return true;
    }

    /** The text of the last token. */
    String token() {
        return text.substring(tokenStart, tokenEnd);
    }

    /** The rest of the current line without surrounding whitespace (the line break is not consumed). */
    String lineRemainder() {
        while (pos < length && isSpace(text.charAt(pos))) {
            pos++;
        }
        int start = pos;
        while (pos < length && !isBreak(text.charAt(pos))) {
            pos++;
        }
        int end = pos;
        while (end > start && isSpace(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(start, end);
    }

    /**
     * Counts the lines holding a token from the cursor on, without moving it, stopping once {@code cap} are found.
     */
    long countContentLines(long cap) {
        long count = 0;
        boolean content = false;
        for (int i = pos; i < length && count < cap; i++) {
            char c = text.charAt(i);
            if (isBreak(c)) {
                if (content) {
                    count++;
                }
                content = false;
            } else if (!isSpace(c)) {
                content = true;
            }
        }
        return content && count < cap ? count + 1 : count;
    }

    /** Whether the last token is a decimal number (see {@link #isDecimal}). */
    boolean tokenIsDecimal() {
        return isDecimal(text, tokenStart, tokenEnd);
    }

    /** The last token as a finite double; the caller has checked {@link #tokenIsDecimal()}. */
    double tokenValue() {
        return Double.parseDouble(text.substring(tokenStart, tokenEnd));
    }

    /** {@link #quote} of the last token. */
    String quotedToken() {
        return quote(text, tokenStart, tokenEnd);
    }

    /**
     * Whether {@code s[from, to)} is a decimal number: an optional sign, digits with an optional fraction (or a
     * fraction alone, {@code .5}; {@code 5.} is fine too), an optional exponent. Nothing else Java would parse
     * ({@code NaN}, {@code Infinity}, hex, {@code f}/{@code d} suffixes) and nothing JavaScript's {@code parseFloat}
     * would half-read ({@code 1.5abc}).
     */
    static boolean isDecimal(CharSequence s, int from, int to) {
        int i = from;
        if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < to && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < to && s.charAt(i) == '.') {
            i++;
            while (i < to && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < to && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < to && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int exponentDigits = 0;
            while (i < to && isDigit(s.charAt(i))) {
                i++;
                exponentDigits++;
            }
            if (exponentDigits == 0) {
                return false;
            }
        }
        return i == to;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /**
     * {@code token} parsed as a finite decimal number.
     *
     * @param what names the value in the message, e.g. {@code OFFSET of JOINT 'Hips' (line 4), value 2}
     * @throws ImportException (invalid) when it is not a decimal number or overflows to infinity
     */
    static double number(String token, String what) {
        if (token == null) {
            throw ImportException.invalid(what + " is missing: the file ends there");
        }
        if (!isDecimal(token, 0, token.length())) {
            throw ImportException.invalid(what + ": " + quote(token) + " is not a number");
        }
        double v = Double.parseDouble(token);
        if (!Double.isFinite(v)) {
            throw ImportException.invalid(what + ": " + quote(token) + " is out of range");
        }
        return v;
    }

    /** {@code token} in single quotes for a message: control characters escaped, cut after 40 characters. */
    static String quote(String token) {
        return quote(token, 0, token.length());
    }

    private static String quote(CharSequence s, int from, int to) {
        StringBuilder b = new StringBuilder("'");
        int end = Math.min(to, from + QUOTE_MAX);
        for (int i = from; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append(end < to ? "…'" : "'");
        return b.toString();
    }
}

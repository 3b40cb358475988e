package io.posekit.asset.md5;

import io.posekit.asset.ImportException;
import io.posekit.asset.DecodeBudget;
import java.nio.charset.StandardCharsets;

/**
 * Tokens of an MD5 text file ({@code .md5mesh}, {@code .md5anim}), read lazily one at a time so memory stays at
 * the size of the text: punctuation {@code { } ( )}, quoted strings (on one line, no escapes), and words (any
 * other run of characters up to white space, punctuation, a quote or a comment). Comments are {@code //} to the
 * end of the line and {@code /* … *}{@code /}. Numbers are words parsed strictly: decimal integers, and decimals
 * with optional fraction and exponent; {@code nan}, {@code inf}, hex and suffixes are rejected, as are values
 * that overflow.
 *
 * <p>Every error is an {@link ImportException} (invalid) naming the file and line, e.g.
 * {@code walk.md5anim line 12: expected '(' but found 'x'}.
 */
final class Md5Lexer {

    /** What a token is. */
    enum Kind { WORD, STRING, PUNCT, END }

    private final String file;
    private final String text;
    private final DecodeBudget budget;
    private int pos;
    private int line = 1;

    private Kind kind;
    private String token;
    private int tokenLine;
    private int tokenStart;

    /** A lexer over {@code bytes} (UTF-8) of the file named {@code file} (for messages), under the import's deadline. */
    Md5Lexer(String file, byte[] bytes, DecodeBudget budget) {
        this.file = file;
        this.budget = budget;
        this.text = new String(bytes, StandardCharsets.UTF_8);
        advance();
    }

    /** The current token's kind. */
    Kind kind() {
        return kind;
    }

    /** The current token's text (the content of a string, without quotes); empty at the end. */
    String token() {
        return token;
    }

    /** Whether the current token is the word {@code word}. */
    boolean isWord(String word) {
        return kind == Kind.WORD && token.equals(word);
    }

    /** Whether the current token is the punctuation {@code c}. */
    boolean isPunct(char c) {
        return kind == Kind.PUNCT && token.charAt(0) == c;
    }

    /** Characters from the current token to the end: an upper bound for what the rest of the file can hold. */
    long remaining() {
        return text.length() - tokenStart;
    }

    /** The file's name, for messages. */
    String file() {
        return file;
    }

    /**
     * Consumes the {@code MD5Version 10} line every MD5 file starts with.
     *
     * @throws ImportException invalid (422) when the file does not start with {@code MD5Version}; unsupported
     *     (415) for a version other than 10 (Doom 3's)
     */
    void expectVersion10() {
        if (!isWord("MD5Version")) {
            throw error("not an MD5 file: expected 'MD5Version' but found " + describe());
        }
        advance();
        String at = where();
        int version = integer("the MD5Version");
        if (version != 10) {
            throw ImportException.unsupported(at + ": MD5Version " + version + " is not supported; only version 10"
                    + " (Doom 3) is");
        }
    }

    /** {@code "<file> line <n>"} of the current token, for messages. */
    String where() {
        return file + " line " + tokenLine;
    }

    /** An invalid-file exception at the current token. */
    ImportException error(String message) {
        return ImportException.invalid(where() + ": " + message);
    }

    /** The current token described for messages, e.g. {@code 'numverts'}, {@code the end of the file}. */
    String describe() {
        return switch (kind) {
            case END -> "the end of the file";
            case STRING -> "the string \"" + shorten(token) + "\"";
            default -> "'" + shorten(token) + "'";
        };
    }

    /** Consumes the word {@code word}. */
    void expectWord(String word) {
        if (!isWord(word)) {
            throw error("expected '" + word + "' but found " + describe());
        }
        advance();
    }

    /** Consumes the punctuation {@code c}. */
    void expectPunct(char c) {
        if (!isPunct(c)) {
            throw error("expected '" + c + "' but found " + describe());
        }
        advance();
    }

    /** Consumes a quoted string. */
    String string(String what) {
        if (kind != Kind.STRING) {
            throw error("expected " + what + " (a quoted string) but found " + describe());
        }
        String s = token;
        advance();
        return s;
    }

    /** Consumes a decimal integer. */
    int integer(String what) {
        if (kind != Kind.WORD || !isInteger(token)) {
            throw error("expected " + what + " (an integer) but found " + describe());
        }
        long v = token.length() > 11 ? Long.MAX_VALUE : Long.parseLong(token);
        if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            throw error(what + " " + shorten(token) + " is out of range");
        }
        advance();
        return (int) v;
    }

    /** Consumes a finite decimal number as a float. */
    float number(String what) {
        if (kind != Kind.WORD || !isDecimal(token)) {
            throw error("expected " + what + " (a number) but found " + describe());
        }
        float v = Float.parseFloat(token);
        if (!Float.isFinite(v)) {
            throw error(what + " " + shorten(token) + " is not finite");
        }
        advance();
        return v;
    }

    /** Moves to the next token. */
    void advance() {
        budget.checkTime();
        skipSpaceAndComments();
        tokenLine = line;
        tokenStart = pos;
        int len = text.length();
        if (pos >= len) {
            kind = Kind.END;
            token = "";
            return;
        }
        char c = text.charAt(pos);
        if (c == '{' || c == '}' || c == '(' || c == ')') {
            kind = Kind.PUNCT;
            token = String.valueOf(c);
            pos++;
            return;
        }
        if (c == '"') {
            int end = pos + 1;
            while (end < len && text.charAt(end) != '"' && text.charAt(end) != '\n') {
                end++;
            }
            if (end >= len || text.charAt(end) != '"') {
                throw ImportException.invalid(file + " line " + line + ": unterminated string");
            }
            kind = Kind.STRING;
            token = text.substring(pos + 1, end);
            pos = end + 1;
            return;
        }
        int start = pos;
        while (pos < len && !isSpace(text.charAt(pos)) && !isDelimiter(text.charAt(pos)) && !commentStarts(pos)) {
            pos++;
        }
        kind = Kind.WORD;
        token = text.substring(start, pos);
    }

    private void skipSpaceAndComments() {
        int len = text.length();
        while (pos < len) {
            char c = text.charAt(pos);
            if (c == '\n') {
                line++;
                pos++;
            } else if (isSpace(c)) {
                pos++;
            } else if (c == '/' && pos + 1 < len && text.charAt(pos + 1) == '/') {
                while (pos < len && text.charAt(pos) != '\n') {
                    pos++;
                }
            } else if (c == '/' && pos + 1 < len && text.charAt(pos + 1) == '*') {
                int startLine = line;
                pos += 2;
                while (pos < len && !(text.charAt(pos) == '*' && pos + 1 < len && text.charAt(pos + 1) == '/')) {
                    if (text.charAt(pos) == '\n') {
                        line++;
                    }
                    pos++;
                }
                if (pos >= len) {
                    throw ImportException.invalid(file + " line " + startLine + ": unterminated /* comment");
                }
                pos += 2;
            } else {
                return;
            }
        }
    }

    private boolean commentStarts(int at) {
        return text.charAt(at) == '/' && at + 1 < text.length()
                && (text.charAt(at + 1) == '/' || text.charAt(at + 1) == '*');
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0x0B || c == '\uFEFF';
    }

    private static boolean isDelimiter(char c) {
        return c == '{' || c == '}' || c == '(' || c == ')' || c == '"';
    }

    private static boolean isInteger(String s) {
        int i = s.startsWith("-") || s.startsWith("+") ? 1 : 0;
        if (i == s.length()) {
            return false;
        }
        for (; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?} */
    private static boolean isDecimal(String s) {
        int i = 0;
        int len = s.length();
        if (i < len && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        int digits = 0;
        while (i < len && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
            digits++;
        }
        if (i < len && s.charAt(i) == '.') {
            i++;
            while (i < len && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (i < len && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < len && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
                i++;
            }
            int exp = 0;
            while (i < len && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
                exp++;
            }
            if (exp == 0) {
                return false;
            }
        }
        return i == len;
    }

    static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}

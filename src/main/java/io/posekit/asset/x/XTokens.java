package io.posekit.asset.x;

import io.posekit.asset.ImportException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The token stream of a {@code .x} document, text or binary, as the {@link XParser} sees it: structural tokens
 * (identifiers and names, strings, braces, GUIDs) and typed data values read in template order. Separators
 * ({@code ,} {@code ;}) are skipped wherever they appear, so the parser is as lenient as the DirectX and assimp
 * readers about their exact placement.
 *
 * <p>Every read is bounds-checked against the data; every failure is an {@link ImportException} naming what was
 * being read and where ({@link #location()}: a line in text, a byte offset in binary data).
 */
abstract sealed class XTokens permits TextTokens, BinaryTokens {

    /** What the next structural token is. */
    enum Kind {
        /** An identifier or name (a text word, a binary NAME or the {@code template} keyword). */
        WORD,
        /** A quoted string (binary STRING). */
        STRING,
        /** {@code {}. */
        OPEN,
        /** {@code }}. */
        CLOSE,
        /** A GUID ({@code <…>} in text). */
        GUID,
        /** Anything else: binary numbers and lists, template keywords and punctuation. */
        DATA,
        /** The end of the data. */
        END
    }

    /**
     * Skips separators (and, in binary data, the unread rest of a number list) and tells what the next token is,
     * without consuming it.
     */
    abstract Kind peek();

    /** Consumes the next token and returns its text: the word, name or string, {@code "{"}, {@code "}"} or the GUID. */
    abstract String take();

    /** The text of the next token, which {@link #peek()} said is a {@link Kind#WORD}, without consuming it. */
    abstract String peekWord();

    /** Consumes the next token without building its text. */
    abstract void skip();

    /** Reads an integer data value (a DWORD, or a negative SDWORD in text) for {@code what}. */
    abstract long readInt(String what);

    /** Reads a finite float data value for {@code what}. */
    abstract float readFloat(String what);

    /** Reads a string data value for {@code what}. */
    abstract String readString(String what);

    /** Where the stream is, for messages: {@code line 12} or {@code byte 4120}. */
    abstract String location();

    /** The next token for a message: {@code '}'}, {@code 'Frame'}, {@code an integer list} or {@code the end of the data}. */
    abstract String describeNext();

    /** Bytes not read yet. */
    abstract long remainingBytes();

    /** The fewest bytes one integer value can take here (so a count can be checked against what is left). */
    abstract int minBytesPerInt();

    /** The fewest bytes one float value can take here. */
    abstract int minBytesPerFloat();

    /** How many text values such as {@code -1.#IND00} (a C runtime's NaN) were read as 0. */
    int nonNumbers() {
        return 0;
    }

    /**
     * Checks that {@code count} records of {@code ints} integers and {@code floats} floats can fit in what is left
     * of the data, before anything is allocated for them.
     *
     * @throws ImportException (invalid) naming the count when the data cannot hold it
     */
    void requireData(long count, int ints, int floats, String what) {
        long perRecord = (long) ints * minBytesPerInt() + (long) floats * minBytesPerFloat();
        if (count < 0) {
            throw ImportException.invalid(what + ": the count " + count + " (" + location() + ") is negative");
        }
        if (count > Integer.MAX_VALUE - 16 || count * perRecord > remainingBytes()) {
            throw ImportException.invalid(what + ": the count " + count + " (" + location() + ") is more than the "
                    + remainingBytes() + " bytes left in the data can hold");
        }
    }

    /** Names and strings: UTF-8 when valid, else ISO-8859-1 (older exporters wrote the ANSI code page). */
    static String decode(byte[] b, int from, int length) {
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            return new String(b, from, length, StandardCharsets.ISO_8859_1);
        }
    }

    /** A token or value for a message, quoted and cut to 40 characters. */
    static String quote(String s) {
        return "'" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
    }
}

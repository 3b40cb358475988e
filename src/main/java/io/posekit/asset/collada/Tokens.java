package io.posekit.asset.collada;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;

/**
 * Strict parsing of whitespace-separated lists (the content of {@code <float_array>}, {@code <p>},
 * {@code <translate>}, …). Numbers follow XML Schema's lexical forms: decimal integers with an optional sign;
 * decimals with optional fraction and exponent. {@code INF}, {@code NaN} and anything Java would accept beyond
 * that (hex floats, {@code f}/{@code d} suffixes) are rejected, as are values that overflow to infinity: every
 * float posekit reads from a COLLADA file is geometry, skin, transform or animation data and must be finite.
 * Arrays sized by a count are charged to the {@link DecodeBudget} before they are allocated.
 *
 * <p><b>Decimal commas.</b> 3ds Max's COLLADA exporter, run under a locale with a decimal comma, writes
 * {@code <translate>-7,589569 -14,885468 0,000000</translate>}. assimp reads a comma followed by a digit as the decimal
 * point ({@code fast_atoreal_move}); posekit does so only where it is unambiguous: in a list whose number of values is
 * known (a transform element's, {@code <bind_shape_matrix>}'s 16, a {@code <float_array>}'s {@code count}), when the
 * whitespace-separated tokens number exactly that many — so the commas cannot be separators — a token of the form
 * {@code [+-]digits,digits[exponent]} is read with the comma as the decimal point. Anywhere else a comma is not a
 * number.
 */
final class Tokens {

    private Tokens() {
    }

    /** The number of whitespace-separated tokens in {@code text}. */
    static int count(String text) {
        int n = 0;
        boolean in = false;
        for (int i = 0, len = text.length(); i < len; i++) {
            boolean space = XmlTreeReader.isSpace(text.charAt(i));
            if (!space && !in) {
                n++;
            }
            in = !space;
        }
        return n;
    }

    /** A cursor over the tokens of a text. */
    static final class Cursor {
        private final String text;
        private int pos;

        Cursor(String text) {
            this.text = text;
        }

        /** The next token, or {@code null} at the end. */
        String next() {
            int len = text.length();
            while (pos < len && XmlTreeReader.isSpace(text.charAt(pos))) {
                pos++;
            }
            if (pos == len) {
                return null;
            }
            int start = pos;
            while (pos < len && !XmlTreeReader.isSpace(text.charAt(pos))) {
                pos++;
            }
            return text.substring(start, pos);
        }
    }

    /**
     * Parses exactly {@code count} floats of {@code text} (extra tokens are left for the caller to report).
     *
     * @param what names the list in messages, e.g. {@code float_array 'Cube-positions-array'}
     * @throws ImportException (invalid) when a token is not a finite number or there are fewer than {@code count}
     */
    static float[] floats(String text, int count, String what, DecodeBudget budget) {
        budget.charge(count, 4, what);
        float[] out = new float[count];
        Cursor c = new Cursor(text);
        int commas = -1; // whether decimal commas are unambiguous here: counted once, at the first comma
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            String token = c.next();
            if (token == null) {
                throw ImportException.invalid(what + " has count " + count + " but only " + i + " values");
            }
            if (token.indexOf(',') >= 0) {
                if (commas < 0) {
                    commas = count(text) == count ? 1 : 0;
                }
                if (commas == 1) {
                    token = decimalComma(token);
                }
            }
            out[i] = parseFloat(token, what, i);
        }
        return out;
    }

    /**
     * {@code token} with its decimal comma made a point when it has the form {@code [+-]digits,digits[exponent]}
     * (see the class comment for when that is asked); otherwise {@code token} as it is.
     */
    static String decimalComma(String token) {
        int comma = token.indexOf(',');
        if (comma < 0 || token.indexOf(',', comma + 1) >= 0 || token.indexOf('.') >= 0) {
            return token;
        }
        int sign = token.charAt(0) == '-' || token.charAt(0) == '+' ? 1 : 0;
        if (comma == sign || comma + 1 >= token.length() || !isDigit(token.charAt(comma + 1))) {
            return token;
        }
        return token.substring(0, comma) + '.' + token.substring(comma + 1);
    }

    /**
     * Parses every token of {@code text} as a double within the range of a float (the model keeps floats; a
     * transform, matrix or attribute beyond it would become infinite there), requiring exactly {@code expected}
     * of them.
     */
    static double[] doubles(String text, int expected, String what) {
        int n = count(text);
        if (n != expected) {
            throw ImportException.invalid(what + " needs " + expected + " numbers, not " + n);
        }
        double[] out = new double[n];
        Cursor c = new Cursor(text);
        for (int i = 0; i < n; i++) {
            // the count matches, so a comma inside a token is a decimal comma (see the class comment)
            String token = decimalComma(c.next());
            checkNumber(token, what, i);
            double v = Double.parseDouble(token);
            if (!Double.isFinite(v)) {
                throw ImportException.invalid(what + " value " + i + " (" + Text.shorten(token) + ") is not finite");
            }
            if (!Float.isFinite((float) v)) {
                throw ImportException.invalid(what + " value " + i + " (" + Text.shorten(token)
                        + ") is beyond the range of a float");
            }
            out[i] = v;
        }
        return out;
    }

    /** Parses every token of {@code text} as an int, charging the budget for the array first. */
    static int[] ints(String text, String what, DecodeBudget budget) {
        int n = count(text);
        budget.charge(n, 4, what);
        int[] out = new int[n];
        Cursor c = new Cursor(text);
        for (int i = 0; i < n; i++) {
            budget.checkTime();
            out[i] = parseInt(c.next(), what, i);
        }
        return out;
    }

    /** Parses exactly {@code count} ints of {@code text}, charging the budget first. */
    static int[] ints(String text, int count, String what, DecodeBudget budget) {
        budget.charge(count, 4, what);
        int[] out = new int[count];
        Cursor c = new Cursor(text);
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            String token = c.next();
            if (token == null) {
                throw ImportException.invalid(what + " has count " + count + " but only " + i + " values");
            }
            out[i] = parseInt(token, what, i);
        }
        return out;
    }

    /** The first {@code count} tokens of {@code text}, charging the budget first. */
    static String[] names(String text, int count, String what, DecodeBudget budget) {
        budget.charge(count, 16, what);
        String[] out = new String[count];
        Cursor c = new Cursor(text);
        for (int i = 0; i < count; i++) {
            budget.checkTime();
            String token = c.next();
            if (token == null) {
                throw ImportException.invalid(what + " has count " + count + " but only " + i + " values");
            }
            out[i] = token;
        }
        return out;
    }

    static float parseFloat(String token, String what, int index) {
        checkNumber(token, what, index);
        float v = Float.parseFloat(token);
        if (!Float.isFinite(v)) {
            throw ImportException.invalid(what + " value " + index + " (" + Text.shorten(token) + ") is not finite");
        }
        return v;
    }

    static int parseInt(String token, String what, int index) {
        int len = token.length();
        if (len == 0) {
            throw ImportException.invalid(what + " value " + index + " is empty");
        }
        int i = token.charAt(0) == '-' || token.charAt(0) == '+' ? 1 : 0;
        boolean ok = i < len && len - i <= 10;
        for (int k = i; k < len && ok; k++) {
            char ch = token.charAt(k);
            ok = ch >= '0' && ch <= '9';
        }
        long v = ok ? Long.parseLong(token) : 0;
        if (!ok || v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
            throw ImportException.invalid(what + " value " + index + " (" + Text.shorten(token) + ") is not an integer");
        }
        return (int) v;
    }

    /** Requires the XML Schema decimal/float lexical form (no INF/NaN, no hex, no suffix). */
    private static void checkNumber(String token, String what, int index) {
        int len = token.length();
        int i = 0;
        if (i < len && (token.charAt(i) == '-' || token.charAt(i) == '+')) {
            i++;
        }
        int digits = 0;
        while (i < len && isDigit(token.charAt(i))) {
            i++;
            digits++;
        }
        if (i < len && token.charAt(i) == '.') {
            i++;
            while (i < len && isDigit(token.charAt(i))) {
                i++;
                digits++;
            }
        }
        boolean ok = digits > 0;
        if (ok && i < len && (token.charAt(i) == 'e' || token.charAt(i) == 'E')) {
            i++;
            if (i < len && (token.charAt(i) == '-' || token.charAt(i) == '+')) {
                i++;
            }
            int exp = 0;
            while (i < len && isDigit(token.charAt(i))) {
                i++;
                exp++;
            }
            ok = exp > 0;
        }
        if (!ok || i != len) {
            String problem = token.equals("INF") || token.equals("-INF") || token.equals("+INF") || token.equals("NaN")
                    ? " is not finite" : " is not a number";
            throw ImportException.invalid(what + " value " + index + " (" + Text.shorten(token) + ")" + problem);
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

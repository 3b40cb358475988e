package io.posekit.asset.collada;

import java.math.BigDecimal;
import java.math.MathContext;

/** Small helpers for user-facing messages. */
final class Text {

    private static final int MAX_QUOTED = 60;

    private Text() {
    }

    /** {@code s} cut to 60 characters (with an ellipsis), for quoting file content in messages. */
    static String shorten(String s) {
        if (s == null) {
            return "null";
        }
        return s.length() <= MAX_QUOTED ? s : s.substring(0, MAX_QUOTED) + "…";
    }

    /** {@code s} shortened and in single quotes. */
    static String quote(String s) {
        return "'" + shorten(s) + "'";
    }

    /** {@code value} rounded to {@code digits} significant digits, without trailing zeros. */
    static String number(double value, int digits) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return new BigDecimal(value).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
    }

    /**
     * A weight sum for messages: {@code 1} when within {@code tolerance} of 1, else 3 significant digits, more when
     * 3 would show a sum that is off as exactly 1.
     */
    static String weightSum(double value, double tolerance) {
        if (Math.abs(value - 1) <= tolerance) {
            return "1";
        }
        for (int digits = 3; digits < 17; digits++) {
            String s = number(value, digits);
            if (!s.equals("1")) {
                return s;
            }
        }
        return Double.toString(value);
    }
}

package io.posekit.asset.collada;

import io.posekit.asset.ImportException;

/** Typed reading of attributes, with messages naming the element. */
final class Attributes {

    private Attributes() {
    }

    /**
     * The attribute as a non-negative int, or {@code fallback} when absent.
     *
     * @throws ImportException (invalid) when present but not a non-negative integer
     */
    static int nonNegativeInt(XmlElement e, String attribute, int fallback, String where) {
        String s = e.attr(attribute);
        if (s == null) {
            return fallback;
        }
        s = s.strip();
        int v;
        try {
            v = s.isEmpty() ? -1 : Tokens.parseInt(s, where, 0);
        } catch (ImportException ex) {
            v = -1;
        }
        if (v < 0) {
            throw ImportException.invalid(where + ": " + attribute + " " + Text.quote(s) + " is not a non-negative integer");
        }
        return v;
    }

    /** The attribute as an int (any sign), or {@code fallback} when absent. */
    static int integer(XmlElement e, String attribute, int fallback, String where) {
        String s = e.attr(attribute);
        if (s == null) {
            return fallback;
        }
        try {
            return Tokens.parseInt(s.strip(), where, 0);
        } catch (ImportException | StringIndexOutOfBoundsException ex) {
            throw ImportException.invalid(where + ": " + attribute + " " + Text.quote(s) + " is not an integer");
        }
    }

    /** The attribute as a finite double, or {@code fallback} when absent. */
    static double number(XmlElement e, String attribute, double fallback, String where) {
        String s = e.attr(attribute);
        if (s == null) {
            return fallback;
        }
        try {
            return Tokens.doubles(s, 1, where)[0];
        } catch (ImportException ex) {
            throw ImportException.invalid(where + ": " + attribute + " " + Text.quote(s) + " is not a finite number");
        }
    }
}

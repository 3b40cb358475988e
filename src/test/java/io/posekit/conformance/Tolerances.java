package io.posekit.conformance;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The conformance README's recommended tolerances, as checks that collect every mismatch (with where it is)
 * instead of stopping at the first, so one failing sample reports its whole extent.
 */
final class Tolerances {

    /** Positions: the float32-implementation tolerance, relative to the posed mesh's bounding-box diagonal. */
    static final double POSITION = 1e-4;
    static final double NORMAL = 1e-3;
    static final double TRS = 1e-5;
    static final double QUATERNION = 1e-5;
    static final double MATRIX = 1e-5;
    static final double CHECKSUM = 1e-5;

    private final List<String> failures = new ArrayList<>();
    private int checks;

    List<String> failures() {
        return failures;
    }

    int checks() {
        return checks;
    }

    /** Translation or scale: |a−e| ≤ 1e-5·max(1,|e|) per component. */
    void vector(String where, JsonNode expected, JsonNode actual) {
        checks++;
        for (int i = 0; i < expected.size(); i++) {
            double e = expected.get(i).asDouble();
            double a = actual.get(i).asDouble();
            if (!(Math.abs(a - e) <= TRS * Math.max(1, Math.abs(e)))) {
                fail(where, expected, actual);
                return;
            }
        }
    }

    /** Quaternion: min(‖a−e‖∞, ‖a+e‖∞) ≤ 1e-5. */
    void quaternion(String where, JsonNode expected, JsonNode actual) {
        checks++;
        double minus = 0;
        double plus = 0;
        for (int i = 0; i < 4; i++) {
            double e = expected.get(i).asDouble();
            double a = actual.get(i).asDouble();
            minus = Math.max(minus, Math.abs(a - e));
            plus = Math.max(plus, Math.abs(a + e));
        }
        if (!(Math.min(minus, plus) <= QUATERNION)) {
            fail(where, expected, actual);
        }
    }

    /** Matrix: |a−e| ≤ 1e-5·max(1, max|e|) over the matrix. */
    void matrix(String where, JsonNode expected, JsonNode actual) {
        checks++;
        double scale = 1;
        for (JsonNode e : expected) {
            scale = Math.max(scale, Math.abs(e.asDouble()));
        }
        for (int i = 0; i < 16; i++) {
            if (!(Math.abs(actual.get(i).asDouble() - expected.get(i).asDouble()) <= MATRIX * scale)) {
                fail(where, expected, actual);
                return;
            }
        }
    }

    /** Per-vertex 3-vectors: ‖a−e‖ ≤ tolerance, for the first {@code expected.size()/3} vertices. */
    void vertices(String where, JsonNode expected, JsonNode actual, double tolerance) {
        checks++;
        int n = expected.size() / 3;
        if (actual == null || actual.size() < expected.size()) {
            failures.add(where + ": expected at least " + n + " vertices, got " + (actual == null ? "none" : actual.size() / 3));
            return;
        }
        int bad = 0;
        String first = null;
        double worst = 0;
        for (int v = 0; v < n; v++) {
            double dx = actual.get(3 * v).asDouble() - expected.get(3 * v).asDouble();
            double dy = actual.get(3 * v + 1).asDouble() - expected.get(3 * v + 1).asDouble();
            double dz = actual.get(3 * v + 2).asDouble() - expected.get(3 * v + 2).asDouble();
            double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
            worst = Math.max(worst, d);
            if (!(d <= tolerance)) {
                if (bad++ == 0) {
                    first = "vertex " + v + " expected [" + expected.get(3 * v) + ", " + expected.get(3 * v + 1) + ", "
                            + expected.get(3 * v + 2) + "] got [" + actual.get(3 * v) + ", " + actual.get(3 * v + 1)
                            + ", " + actual.get(3 * v + 2) + "]";
                }
            }
        }
        if (bad > 0) {
            failures.add(where + ": " + bad + " of " + n + " vertices beyond " + tolerance + " (worst " + worst + "); first: " + first);
        }
    }

    /** Checksum: relative 1e-5 with an absolute floor. */
    void checksum(String where, double expected, double actual, double floor) {
        checks++;
        if (!(Math.abs(actual - expected) <= Math.max(CHECKSUM * Math.abs(expected), floor))) {
            failures.add(where + ": expected " + expected + ", got " + actual);
        }
    }

    void equal(String where, Object expected, Object actual) {
        checks++;
        if (!java.util.Objects.equals(expected, actual)) {
            failures.add(where + ": expected " + expected + ", got " + actual);
        }
    }

    void fail(String message) {
        failures.add(message);
    }

    private void fail(String where, JsonNode expected, JsonNode actual) {
        failures.add(where + ": expected " + expected + ", got " + actual);
    }
}

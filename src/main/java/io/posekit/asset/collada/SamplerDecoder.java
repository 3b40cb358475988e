package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.clip.Curve;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Decodes animation {@code <sampler>}s (each once per import) and turns one output component into a
 * {@link Curve}.
 *
 * <p>Inputs: {@code INPUT} (key times in seconds: finite, non-decreasing), {@code OUTPUT} (one element per key,
 * any number of components), {@code INTERPOLATION} (one name per key: the interpolation of the segment that
 * starts at that key; absent means LINEAR), {@code IN_TANGENT}/{@code OUT_TANGENT}.
 *
 * <p>Segments: {@code STEP}, {@code LINEAR}, {@code BEZIER} and {@code HERMITE}. A Bézier segment from key k to
 * key k+1 has the control points OUT_TANGENT of key k and IN_TANGENT of key k+1: 2-D tangents ({@code (time,
 * value)} pairs per component) are absolute control points, as the COLLADA specification defines them; legacy
 * 1-D tangents (a value per component) put the control times at the thirds of the segment. A Hermite segment's
 * tangents T0 (OUT of key k) and T1 (IN of key k+1) become the Bézier control points {@code P0 + T0/3} and
 * {@code P1 − T1/3}; a 1-D Hermite tangent's time component is the segment length. {@code CARDINAL},
 * {@code BSPLINE}, unknown names and Bézier/Hermite keys without tangents are read as LINEAR with a warning.
 */
final class SamplerDecoder {

    static final byte STEP = 0;
    static final byte LINEAR = 1;
    static final byte BEZIER = 2;
    static final byte HERMITE = 3;

    /**
     * A decoded sampler.
     *
     * @param where names it in messages
     * @param times key times
     * @param components values per key
     * @param values {@code components} per key
     * @param interpolation per key (the segment starting there)
     * @param in in-tangents, {@code tangentSize · components} per key, or {@code null}
     * @param out out-tangents, like {@code in}
     * @param tangentSize 2 for (time, value) tangents, 1 for value-only ones, 0 without tangents
     */
    record Sampler(String where, float[] times, int components, float[] values, byte[] interpolation, float[] in,
            float[] out, int tangentSize) {

        int keyCount() {
            return times.length;
        }

        /** Whether every segment is STEP (vacuously true for a single key). */
        boolean allStep() {
            for (int k = 0; k + 1 < times.length; k++) {
                if (interpolation[k] != STEP) {
                    return false;
                }
            }
            return true;
        }
    }

    private final ColladaDocument doc;
    private final Sources sources;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<XmlElement, Sampler> samplers = new IdentityHashMap<>();

    SamplerDecoder(ColladaDocument doc, Sources sources, DecodeBudget budget, ImportWarnings warnings) {
        this.doc = doc;
        this.sources = sources;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * The sampler a channel's {@code source} URL names.
     *
     * @throws ImportException (invalid) for a missing or malformed sampler
     */
    Sampler sampler(String url, String where) {
        XmlElement e = doc.resolve(url);
        if (e == null || !e.name().equals("sampler")) {
            throw ImportException.invalid(where + ": source " + Text.quote(url) + " is not a <sampler> in this file");
        }
        Sampler s = samplers.get(e);
        if (s == null) {
            s = decode(e);
            samplers.put(e, s);
        }
        return s;
    }

    private Sampler decode(XmlElement e) {
        String where = "sampler " + e.label();
        Source input = null;
        Source output = null;
        Source interpolation = null;
        Source in = null;
        Source out = null;
        for (XmlElement i : e.children("input")) {
            String semantic = i.attr("semantic");
            if (semantic == null) {
                continue;
            }
            switch (semantic) {
                case "INPUT" -> input = sources.resolve(i.attr("source"), where + " input INPUT");
                case "OUTPUT" -> output = sources.resolve(i.attr("source"), where + " input OUTPUT");
                case "INTERPOLATION" -> interpolation = sources.resolve(i.attr("source"), where + " input INTERPOLATION");
                case "IN_TANGENT" -> in = sources.resolve(i.attr("source"), where + " input IN_TANGENT");
                case "OUT_TANGENT" -> out = sources.resolve(i.attr("source"), where + " input OUT_TANGENT");
                default -> {
                    // CONTINUITY, LINEAR_STEPS, …: not needed
                }
            }
        }
        if (input == null || output == null) {
            throw ImportException.invalid(where + " needs an INPUT and an OUTPUT input");
        }
        requireFloats(input, "INPUT", where);
        requireFloats(output, "OUTPUT", where);
        int keys = input.count();
        if (keys == 0) {
            throw ImportException.invalid(where + ": INPUT " + input.describe() + " has no keys");
        }
        int maxKeys = budget.limits().maxKeysPerTrack();
        if (keys > maxKeys) {
            throw ImportLimits.exceeded(where, keys, "keys", maxKeys, ImportLimits.KEYS_PER_TRACK);
        }
        if (output.count() != keys) {
            throw ImportException.invalid(where + ": OUTPUT " + output.describe() + " has " + output.count()
                    + " elements but INPUT " + input.describe() + " has " + keys + " keys");
        }
        int components = output.components();
        if (components == 0) {
            throw ImportException.invalid(where + ": OUTPUT " + output.describe() + " has no components");
        }
        budget.charge((long) keys * (components + 2), 4, where + " keys");
        float[] times = new float[keys];
        for (int k = 0; k < keys; k++) {
            budget.checkTime();
            times[k] = input.f(k, 0);
            if (k > 0 && times[k] < times[k - 1]) {
                throw ImportException.invalid(where + ": INPUT key " + k + " time " + times[k] + " is less than key "
                        + (k - 1) + " time " + times[k - 1]);
            }
        }
        float[] values = new float[keys * components];
        for (int k = 0; k < keys; k++) {
            budget.checkTime();
            for (int c = 0; c < components; c++) {
                values[k * components + c] = output.f(k, c);
            }
        }
        byte[] kinds = interpolations(interpolation, keys, where);
        int tangentSize = 0;
        float[] inValues = null;
        float[] outValues = null;
        boolean curved = false;
        for (int k = 0; k + 1 < keys; k++) {
            curved |= kinds[k] == BEZIER || kinds[k] == HERMITE;
        }
        if (curved) {
            if (in == null || out == null) {
                warnings.add(where + ": BEZIER/HERMITE keys without IN_TANGENT and OUT_TANGENT are interpolated linearly");
                for (int k = 0; k < keys; k++) {
                    if (kinds[k] == BEZIER || kinds[k] == HERMITE) {
                        kinds[k] = LINEAR;
                    }
                }
            } else {
                tangentSize = tangentSize(in, components, keys, "IN_TANGENT", where);
                int outSize = tangentSize(out, components, keys, "OUT_TANGENT", where);
                if (outSize != tangentSize) {
                    throw ImportException.invalid(where + ": IN_TANGENT has " + tangentSize * components
                            + " values per key but OUT_TANGENT has " + outSize * components);
                }
                inValues = tangents(in, keys, tangentSize * components);
                outValues = tangents(out, keys, tangentSize * components);
            }
        }
        return new Sampler(where, times, components, values, kinds, inValues, outValues, tangentSize);
    }

    private static void requireFloats(Source s, String semantic, String where) {
        if (s.kind() != Source.Kind.FLOAT) {
            throw ImportException.invalid(where + ": " + semantic + " " + s.describe() + " is not a float_array source");
        }
        if (s.components() == 0) {
            throw ImportException.invalid(where + ": " + semantic + " " + s.describe() + " has no components");
        }
    }

    private byte[] interpolations(Source s, int keys, String where) {
        byte[] kinds = new byte[keys];
        java.util.Arrays.fill(kinds, LINEAR);
        if (s == null) {
            return kinds;
        }
        if (s.kind() != Source.Kind.NAME) {
            throw ImportException.invalid(where + ": INTERPOLATION " + s.describe() + " is not a Name_array source");
        }
        if (s.count() != keys) {
            throw ImportException.invalid(where + ": INTERPOLATION " + s.describe() + " has " + s.count()
                    + " elements but there are " + keys + " keys");
        }
        for (int k = 0; k < keys; k++) {
            String name = s.name(k, 0);
            kinds[k] = switch (name) {
                case "STEP" -> STEP;
                case "LINEAR" -> LINEAR;
                case "BEZIER" -> BEZIER;
                case "HERMITE" -> HERMITE;
                default -> {
                    warnings.add(where + ": interpolation " + Text.quote(name) + " is not supported; LINEAR is used");
                    yield LINEAR;
                }
            };
        }
        return kinds;
    }

    private static int tangentSize(Source s, int components, int keys, String semantic, String where) {
        if (s.kind() != Source.Kind.FLOAT) {
            throw ImportException.invalid(where + ": " + semantic + " " + s.describe() + " is not a float_array source");
        }
        if (s.count() != keys) {
            throw ImportException.invalid(where + ": " + semantic + " " + s.describe() + " has " + s.count()
                    + " elements but there are " + keys + " keys");
        }
        if (s.components() == 2 * components) {
            return 2;
        }
        if (s.components() == components) {
            return 1;
        }
        throw ImportException.invalid(where + ": " + semantic + " " + s.describe() + " has " + s.components()
                + " values per key; " + components + " or " + 2 * components + " are needed for " + components
                + (components == 1 ? " output component" : " output components"));
    }

    private float[] tangents(Source s, int keys, int perKey) {
        budget.charge((long) keys * perKey, 4, "sampler tangents");
        float[] out = new float[keys * perKey];
        for (int k = 0; k < keys; k++) {
            for (int c = 0; c < perKey; c++) {
                out[k * perKey + c] = s.f(k, c);
            }
        }
        return out;
    }

    /** Key times shifted by {@code -shift} (the clip start), shared by the curves of one sampler. */
    float[] shiftedTimes(Sampler s, double shift) {
        if (shift == 0) {
            return s.times();
        }
        budget.charge(s.keyCount(), 4, s.where() + " shifted key times");
        float[] out = new float[s.keyCount()];
        for (int k = 0; k < out.length; k++) {
            out[k] = (float) (s.times()[k] - shift);
        }
        return out;
    }

    /**
     * The curve of output component {@code component}, times shifted by {@code -shift}.
     *
     * @param times {@link #shiftedTimes} of the sampler
     */
    Curve curve(Sampler s, int component, double shift, float[] times) {
        int n = s.keyCount();
        int comps = s.components();
        // values, segment kinds and (at most) 4 control floats per segment
        budget.charge(6L * n, 4, s.where() + " curve");
        float[] values = new float[n];
        for (int k = 0; k < n; k++) {
            values[k] = s.values()[k * comps + component];
        }
        byte[] segments = new byte[n - 1];
        float[] controls = null;
        for (int k = 0; k + 1 < n; k++) {
            byte kind = s.interpolation()[k];
            segments[k] = kind == STEP ? Curve.STEP : kind == LINEAR ? Curve.LINEAR : Curve.BEZIER;
            if (kind == BEZIER || kind == HERMITE) {
                if (controls == null) {
                    controls = new float[4 * (n - 1)];
                }
                controls(s, component, k, shift, kind == HERMITE, controls);
            }
        }
        try {
            return new Curve(times, values, segments, controls);
        } catch (IllegalArgumentException e) {
            throw ImportException.invalid(s.where() + ": " + e.getMessage());
        }
    }

    /** Writes the Bézier control points of segment {@code k} of one component into {@code controls[4k..4k+3]}. */
    private static void controls(Sampler s, int c, int k, double shift, boolean hermite, float[] controls) {
        int comps = s.components();
        double t0 = s.times()[k];
        double t1 = s.times()[k + 1];
        double v0 = s.values()[k * comps + c];
        double v1 = s.values()[(k + 1) * comps + c];
        double length = t1 - t0;
        double c0t;
        double c0v;
        double c1t;
        double c1v;
        if (s.tangentSize() == 2) {
            int per = 2 * comps;
            double outT = s.out()[k * per + 2 * c];
            double outV = s.out()[k * per + 2 * c + 1];
            double inT = s.in()[(k + 1) * per + 2 * c];
            double inV = s.in()[(k + 1) * per + 2 * c + 1];
            if (hermite) {
                c0t = t0 + outT / 3;
                c0v = v0 + outV / 3;
                c1t = t1 - inT / 3;
                c1v = v1 - inV / 3;
            } else {
                c0t = outT;
                c0v = outV;
                c1t = inT;
                c1v = inV;
            }
        } else {
            double outV = s.out()[k * comps + c];
            double inV = s.in()[(k + 1) * comps + c];
            c0t = t0 + length / 3;
            c1t = t1 - length / 3;
            if (hermite) {
                c0v = v0 + outV / 3;
                c1v = v1 - inV / 3;
            } else {
                c0v = outV;
                c1v = inV;
            }
        }
        controls[4 * k] = (float) (c0t - shift);
        controls[4 * k + 1] = (float) c0v;
        controls[4 * k + 2] = (float) (c1t - shift);
        controls[4 * k + 3] = (float) c1v;
    }
}

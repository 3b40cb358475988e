package io.posekit.asset;

import java.util.Locale;
import java.util.Objects;

/**
 * The coordinate system a model's space is in, as its file declares it: which signed axis points right, up and to
 * the front (towards the viewer), and how many metres one unit is; and the conversion from it to glTF's (right +X,
 * up +Y, front +Z, metres), as ufbx's {@code target_axes = ufbx_axes_right_handed_y_up} with
 * {@code target_unit_meters = 1} computes it.
 *
 * <p>The conversion is {@code C = metresPerUnit · A}, where the rows of the 3×3 {@code A} are the file's right, up and
 * front directions: it maps the file's right to +X, up to +Y and front to +Z. {@code A} is a signed permutation, so
 * {@code C} is a rotation (or a mirror, for a left-handed file: {@link #mirrors()}) times a uniform scale, and every
 * product with it is exact but for the one rounding of the scale. posekit applies it above the model's roots (the
 * root conversion of ufbx's {@code UFBX_SPACE_CONVERSION_TRANSFORM_ROOT}): local transforms, clips, inverse binds and
 * bind-shape geometry stay the file's, and only what is in model space is converted.
 *
 * <p>Immutable.
 *
 * @param right the file's right direction
 * @param up the file's up direction
 * @param front the file's front direction (the one facing the viewer: glTF's +Z)
 * @param metresPerUnit metres per unit of the model's space ({@code > 0}, finite): FBX {@code UnitScaleFactor / 100}
 * @param originalMetresPerUnit metres per unit of the scene the file was exported from (FBX
 *     {@code OriginalUnitScaleFactor / 100}); informational: the geometry is in {@code metresPerUnit}
 */
public record ModelSpace(Axis right, Axis up, Axis front, double metresPerUnit, double originalMetresPerUnit) {

    /** glTF's own space (and any whose file declares none): the conversion is the identity. */
    public static final ModelSpace GLTF = new ModelSpace(Axis.PLUS_X, Axis.PLUS_Y, Axis.PLUS_Z, 1, 1);

    /** A signed coordinate axis. */
    public enum Axis {
        PLUS_X(0, 1), MINUS_X(0, -1), PLUS_Y(1, 1), MINUS_Y(1, -1), PLUS_Z(2, 1), MINUS_Z(2, -1);

        private final int index;
        private final int sign;

        Axis(int index, int sign) {
            this.index = index;
            this.sign = sign;
        }

        /** 0, 1 or 2 for X, Y or Z. */
        public int index() {
            return index;
        }

        /** +1 or −1. */
        public int sign() {
            return sign;
        }

        /** The axis {@code index} (0..2) with {@code sign} (negative: minus, else plus), or {@code null} out of range. */
        public static Axis of(long index, long sign) {
            if (index < 0 || index > 2) {
                return null;
            }
            return values()[(int) (2 * index + (sign < 0 ? 1 : 0))];
        }

        /** {@code +X}, {@code -Z}, … */
        public String label() {
            return (sign < 0 ? "-" : "+") + "XYZ".charAt(index);
        }
    }

    /**
     * @throws IllegalArgumentException when an axis is {@code null}, two directions share an axis, or a unit is not a
     *     positive finite number
     */
    public ModelSpace {
        Objects.requireNonNull(right, "right");
        Objects.requireNonNull(up, "up");
        Objects.requireNonNull(front, "front");
        if (right.index == up.index || right.index == front.index || up.index == front.index) {
            throw new IllegalArgumentException("right " + right.label() + ", up " + up.label() + " and front "
                    + front.label() + " are not three different axes");
        }
        if (!(metresPerUnit > 0) || !Double.isFinite(metresPerUnit)) {
            throw new IllegalArgumentException("metres per unit " + metresPerUnit + " is not a positive number");
        }
        if (!(originalMetresPerUnit > 0) || !Double.isFinite(originalMetresPerUnit)) {
            throw new IllegalArgumentException("original metres per unit " + originalMetresPerUnit
                    + " is not a positive number");
        }
    }

    /** Whether the conversion to glTF's space is the identity (glTF's axes, metres). */
    public boolean isGltf() {
        return right == Axis.PLUS_X && up == Axis.PLUS_Y && front == Axis.PLUS_Z && metresPerUnit == 1;
    }

    /** Whether the file's axes are left-handed, so that the conversion mirrors (its determinant is negative). */
    public boolean mirrors() {
        return determinant() < 0;
    }

    /**
     * The conversion to glTF's space: 16 doubles, column-major, {@code metresPerUnit · A} with no translation (see the
     * class comment).
     */
    public double[] toGltf() {
        double[] m = new double[16];
        Axis[] rows = {right, up, front};
        for (int r = 0; r < 3; r++) {
            m[4 * rows[r].index + r] = rows[r].sign * metresPerUnit;
        }
        m[15] = 1;
        return m;
    }

    /** Each 16-float column-major matrix of {@code matrices}, replaced by {@code C · M} (in double, then rounded). */
    public void convertMatrices(float[] matrices) {
        double[] c = toGltf();
        for (int o = 0; o + 16 <= matrices.length; o += 16) {
            for (int col = 0; col < 4; col++) {
                double x = matrices[o + 4 * col];
                double y = matrices[o + 4 * col + 1];
                double z = matrices[o + 4 * col + 2];
                for (int r = 0; r < 3; r++) {
                    matrices[o + 4 * col + r] = (float) (c[r] * x + c[4 + r] * y + c[8 + r] * z);
                }
            }
        }
    }

    /** Each point (xyz, 3 floats) of {@code xyz}, replaced by {@code C · p}. */
    public void convertPoints(float[] xyz) {
        convert(xyz, 3, metresPerUnit);
    }

    /**
     * Each direction (xyz, 3 floats) of {@code xyz} — normals, unit length kept — replaced by {@code A · n}: for a
     * signed permutation the normal matrix {@code (C⁻¹)ᵀ} is {@code A / metresPerUnit}, so the unit direction is
     * {@code A · n}.
     */
    public void convertDirections(float[] xyz) {
        convert(xyz, 3, 1);
    }

    /**
     * Each tangent (xyzw, 4 floats) of {@code xyzw}: the direction replaced by {@code A · t}, and {@code w} (the
     * bitangent's sign) negated when the conversion mirrors, since the bitangent {@code w · (n × t)} turns with
     * {@code A} only when {@code det A = 1}.
     */
    public void convertTangents(float[] xyzw) {
        convert(xyzw, 4, 1);
        if (mirrors()) {
            for (int i = 3; i < xyzw.length; i += 4) {
                xyzw[i] = -xyzw[i];
            }
        }
    }

    private void convert(float[] v, int stride, double scale) {
        Axis[] rows = {right, up, front};
        for (int o = 0; o + 3 <= v.length; o += stride) {
            double x = v[o];
            double y = v[o + 1];
            double z = v[o + 2];
            for (int r = 0; r < 3; r++) {
                double c = rows[r].index == 0 ? x : rows[r].index == 1 ? y : z;
                v[o + r] = (float) (rows[r].sign * scale * c);
            }
        }
    }

    private int determinant() {
        // sign of the permutation (right, up, front → 0, 1, 2) times the signs of the axes
        int[] p = {right.index, up.index, front.index};
        int inversions = (p[0] > p[1] ? 1 : 0) + (p[0] > p[2] ? 1 : 0) + (p[1] > p[2] ? 1 : 0);
        return (inversions % 2 == 0 ? 1 : -1) * right.sign * up.sign * front.sign;
    }

    /** E.g. {@code right +X, up +Z, front -Y, 0.01 m per unit}. */
    public String describe() {
        return "right " + right.label() + ", up " + up.label() + ", front " + front.label() + ", "
                + number(metresPerUnit) + " m per unit";
    }

    private static String number(double v) {
        String s = String.format(Locale.ROOT, "%.10g", v);
        if (s.contains(".") && !s.contains("e")) {
            s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return s;
    }
}

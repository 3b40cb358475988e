package io.posekit.render;

/**
 * A perspective camera as three.js's {@code PerspectiveCamera} and OpenGL define it: the eye at {@code eye} looking at
 * {@code target} with {@code up} pointing up the picture, a vertical field of view, the width/height aspect and the
 * near and far clip distances. Model-space units (scene units); right-handed, the camera looking down its −Z.
 *
 * <p>Immutable; arrays are copied in and out.
 *
 * @param eye 3 floats, the camera's position
 * @param target 3 floats, the point at the picture's centre
 * @param up 3 floats, not parallel to {@code target − eye}
 * @param fovY vertical field of view, degrees, 0 &lt; fovY &lt; 180
 * @param aspect width / height, &gt; 0
 * @param near near clip distance, &gt; 0
 * @param far far clip distance, &gt; near
 */
public record Camera(double[] eye, double[] target, double[] up, double fovY, double aspect, double near, double far) {

    /** @throws IllegalArgumentException when a value is out of the ranges above or not finite */
    public Camera {
        eye = vector(eye, "eye");
        target = vector(target, "target");
        up = vector(up, "up");
        if (!(fovY > 0 && fovY < 180) || !(aspect > 0) || !(near > 0) || !(far > near) || !Double.isFinite(far)
                || !Double.isFinite(aspect)) {
            throw new IllegalArgumentException("camera needs 0 < fovY < 180, aspect > 0 and 0 < near < far");
        }
    }

    private static double[] vector(double[] v, String what) {
        if (v == null || v.length != 3 || !Double.isFinite(v[0] + v[1] + v[2])) {
            throw new IllegalArgumentException(what + " must be 3 finite numbers");
        }
        return v.clone();
    }

    @Override
    public double[] eye() {
        return eye.clone();
    }

    @Override
    public double[] target() {
        return target.clone();
    }

    @Override
    public double[] up() {
        return up.clone();
    }

    /** The view matrix (model → camera space), 16 doubles column-major, as {@code lookAt}. */
    public double[] viewMatrix() {
        double[] z = normalize(sub(eye, target));
        double[] x = normalize(cross(up, z));
        double[] y = cross(z, x);
        return new double[] {
            x[0], y[0], z[0], 0,
            x[1], y[1], z[1], 0,
            x[2], y[2], z[2], 0,
            -dot(x, eye), -dot(y, eye), -dot(z, eye), 1};
    }

    /** The projection matrix (camera → clip space, OpenGL's −1..1 depth), 16 doubles column-major. */
    public double[] projectionMatrix() {
        double f = 1 / Math.tan(Math.toRadians(fovY) / 2);
        double[] m = new double[16];
        m[0] = f / aspect;
        m[5] = f;
        m[10] = (far + near) / (near - far);
        m[11] = -1;
        m[14] = 2 * far * near / (near - far);
        return m;
    }

    /** {@code projection · view}, 16 doubles column-major. */
    public double[] viewProjection() {
        double[] p = projectionMatrix();
        double[] v = viewMatrix();
        double[] out = new double[16];
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 4; r++) {
                double s = 0;
                for (int k = 0; k < 4; k++) {
                    s += p[k * 4 + r] * v[c * 4 + k];
                }
                out[c * 4 + r] = s;
            }
        }
        return out;
    }

    /**
     * The camera that frames an axis-aligned box from {@code view}: it looks at the box's centre and stands just far
     * enough that all eight corners fall inside the middle {@code fill} of the picture (both ways), so whatever lies in
     * the box is in the picture; near and far enclose the box with room to spare. A box without extent (a point, or
     * {@code null} for nothing at all) is framed as a unit cube around it (around the origin for {@code null}).
     *
     * @param min 3 floats, the box's smallest corner, or {@code null}
     * @param max 3 floats, the box's largest corner, or {@code null}
     * @param fovY vertical field of view, degrees
     * @param aspect width / height
     * @param fill share of the picture the box may take, 0 &lt; fill ≤ 1
     */
    public static Camera framing(float[] min, float[] max, View view, double fovY, double aspect, double fill) {
        double[] lo = min == null ? new double[] {-0.5, -0.5, -0.5} : new double[] {min[0], min[1], min[2]};
        double[] hi = max == null ? new double[] {0.5, 0.5, 0.5} : new double[] {max[0], max[1], max[2]};
        double[] center = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2};
        double size = Math.sqrt(sq(hi[0] - lo[0]) + sq(hi[1] - lo[1]) + sq(hi[2] - lo[2]));
        if (!(size > 0) || !Double.isFinite(size)) {
            size = Math.sqrt(3);
            for (int i = 0; i < 3; i++) {
                lo[i] = center[i] - 0.5;
                hi[i] = center[i] + 0.5;
            }
        }
        double[] d = view.direction();
        double[] up = view.up();
        double[] right = normalize(cross(up, d));
        double tanY = Math.tan(Math.toRadians(fovY) / 2) * fill;
        double tanX = tanY * aspect;
        double distance = 0;
        double nearest = Double.NEGATIVE_INFINITY;
        double farthest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < 8; k++) {
            double[] q = {((k & 1) == 0 ? lo[0] : hi[0]) - center[0], ((k & 2) == 0 ? lo[1] : hi[1]) - center[1],
                ((k & 4) == 0 ? lo[2] : hi[2]) - center[2]};
            double qx = dot(q, right), qy = dot(q, up), qz = dot(q, d);
            // the corner is at depth (distance − qz) in front of the eye; it fits when |qx| ≤ depth · tanX, same for y
            distance = Math.max(distance, Math.max(qz + Math.abs(qx) / tanX, qz + Math.abs(qy) / tanY));
            nearest = Math.max(nearest, qz);
            farthest = Math.min(farthest, qz);
        }
        distance = Math.max(distance, nearest + 0.05 * size);
        double near = Math.max((distance - nearest) * 0.5, distance * 1e-4);
        double far = (distance - farthest) * 1.5 + size * 0.01;
        double[] eye = {center[0] + distance * d[0], center[1] + distance * d[1], center[2] + distance * d[2]};
        return new Camera(eye, center, up, fovY, aspect, near, far);
    }

    private static double sq(double v) {
        return v * v;
    }

    static double[] sub(double[] a, double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }

    static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    static double[] normalize(double[] a) {
        double l = Math.sqrt(dot(a, a));
        return new double[] {a[0] / l, a[1] / l, a[2] / l};
    }
}

package io.posekit.ik;

import org.joml.Quaterniond;
import org.joml.Vector3d;

/** Small rotation helpers the IK jobs share (JOML in double precision). */
final class IkMath {

    private IkMath() {
    }

    /**
     * Blends the correction {@code q} with the identity by {@code weight} in place: weight ≤ 0 gives the identity,
     * ≥ 1 leaves {@code q}; in between the shortest-path slerp from the identity, so weight ½ is exactly half the
     * angle about the same axis. {@code q} is first flipped to {@code w ≥ 0} (the shortest path).
     */
    static void weight(Quaterniond q, double weight) {
        if (q.w < 0) {
            q.set(-q.x, -q.y, -q.z, -q.w);
        }
        if (!(weight > 0)) {
            q.identity();
        } else if (weight < 1) {
            double half = Math.acos(Math.min(1, q.w));
            double s = Math.sin(half);
            if (s < 1e-12) {
                q.identity();
                return;
            }
            double scaled = half * weight;
            double k = Math.sin(scaled) / s;
            q.set(q.x * k, q.y * k, q.z * k, Math.cos(scaled));
        }
    }

    /**
     * The rotation about the unit {@code axis} whose angle has cosine {@code cos} (ozz's {@code FromAxisCosAngle}),
     * into {@code out}.
     */
    static Quaterniond fromAxisCosAngle(Vector3d axis, double cos, Quaterniond out) {
        double c = Math.max(-1, Math.min(1, cos));
        double halfSin = Math.sqrt(Math.max(0, (1 - c) / 2));
        double halfCos = Math.sqrt(Math.max(0, (1 + c) / 2));
        return out.set(axis.x * halfSin, axis.y * halfSin, axis.z * halfSin, halfCos);
    }

    /** The shortest-arc rotation taking the direction of {@code from} onto that of {@code to} (identity if either is 0). */
    static Quaterniond fromVectors(Vector3d from, Vector3d to, Quaterniond out) {
        if (from.lengthSquared() == 0 || to.lengthSquared() == 0) {
            return out.identity();
        }
        return out.rotationTo(from.x, from.y, from.z, to.x, to.y, to.z);
    }
}

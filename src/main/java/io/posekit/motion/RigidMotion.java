package io.posekit.motion;

import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * A rigid transform of model space, {@code x ↦ rotation·x + translation} (double precision): the motion a root
 * carries, as a game applies it to its character's transform. Mutable working storage, not thread-safe.
 */
public final class RigidMotion {

    /** Translation, model units. */
    public final Vector3d translation = new Vector3d();
    /** Rotation, a unit quaternion. */
    public final Quaterniond rotation = new Quaterniond();

    /** Sets the identity; returns this. */
    public RigidMotion identity() {
        translation.zero();
        rotation.identity();
        return this;
    }

    /** Copies {@code other}; returns this. */
    public RigidMotion set(RigidMotion other) {
        translation.set(other.translation);
        rotation.set(other.rotation);
        return this;
    }

    /** {@code this = a · b} (b first, then a); may alias either. Returns this. */
    public RigidMotion mul(RigidMotion a, RigidMotion b) {
        double tx = b.translation.x, ty = b.translation.y, tz = b.translation.z;
        double ax = a.translation.x, ay = a.translation.y, az = a.translation.z;
        Vector3d t = a.rotation.transform(tx, ty, tz, translation);
        t.add(ax, ay, az);
        a.rotation.mul(b.rotation, rotation).normalize();
        return this;
    }

    /** Inverts in place; returns this. */
    public RigidMotion invert() {
        rotation.conjugate();
        rotation.transform(translation).negate();
        return this;
    }

    /**
     * {@code this = base^k}: k times {@code base} composed (its inverse for negative k), by squaring (O(log |k|)).
     * Returns this; {@code base} is not changed and must not be this.
     */
    public RigidMotion power(RigidMotion base, long k) {
        RigidMotion square = new RigidMotion().set(base);
        if (k < 0) {
            square.invert();
        }
        identity();
        long n = k == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(k);
        while (n > 0) {
            if ((n & 1) != 0) {
                mul(this, square);
            }
            n >>= 1;
            if (n > 0) {
                square.mul(square, square);
            }
        }
        return this;
    }

    /** The 7 floats translation xyz, rotation xyzw at {@code out[o..o+6]}. */
    public void write(float[] out, int o) {
        out[o] = (float) translation.x;
        out[o + 1] = (float) translation.y;
        out[o + 2] = (float) translation.z;
        out[o + 3] = (float) rotation.x;
        out[o + 4] = (float) rotation.y;
        out[o + 5] = (float) rotation.z;
        out[o + 6] = (float) rotation.w;
    }
}

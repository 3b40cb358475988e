package io.posekit.asset.gltf.meshopt;

/**
 * The meshopt attribute filters of the specification's Appendix B, applied in place to decoded elements. The results
 * are float32 arithmetic rounded half to even, as the reference decoder computes them (the specification allows one
 * unit in the last place; the exponential filter is exact): checked bit for bit against npm {@code meshoptimizer}.
 */
final class Filters {

    /** 32767 / √2 as a float: a component of magnitude 1/√2 (the largest but one can have) maps to 32767. */
    private static final float QUATERNION_SCALE = (float) (32767 / Math.sqrt(2.0));

    private Filters() {
    }

    /** Applies {@code filter} to {@code count} elements of {@code stride} bytes (a stride the filter allows). */
    static void apply(MeshoptFilter filter, byte[] data, int count, int stride) {
        switch (filter) {
            case NONE -> {
            }
            case OCTAHEDRAL -> {
                if (stride == 4) {
                    octahedral8(data, count);
                } else {
                    octahedral16(data, count);
                }
            }
            case QUATERNION -> quaternion(data, count);
            case EXPONENTIAL -> exponential(data, count * stride / 4);
            case COLOR -> {
                if (stride == 4) {
                    color8(data, count);
                } else {
                    color16(data, count);
                }
            }
        }
    }

    private static void octahedral8(byte[] d, int count) {
        for (int i = 0; i < count; i++) {
            int o = i * 4;
            float[] v = octahedral(d[o], d[o + 1], d[o + 2], 127f);
            d[o] = (byte) round(v[0]);
            d[o + 1] = (byte) round(v[1]);
            d[o + 2] = (byte) round(v[2]);
        }
    }

    private static void octahedral16(byte[] d, int count) {
        for (int i = 0; i < count; i++) {
            int o = i * 8;
            float[] v = octahedral(getShort(d, o), getShort(d, o + 2), getShort(d, o + 4), 32767f);
            putShort(d, o, round(v[0]));
            putShort(d, o + 2, round(v[1]));
            putShort(d, o + 4, round(v[2]));
        }
    }

    /**
     * A unit vector scaled to {@code max} from octahedral coordinates {@code (x, y)} whose third component encodes
     * 1.0: {@code z = one − |x| − |y|}, folded into the lower hemisphere when negative, then normalized.
     */
    private static float[] octahedral(int xi, int yi, int one, float max) {
        float x = xi;
        float y = yi;
        float z = one - Math.abs(x) - Math.abs(y);
        float t = Math.min(z, 0f);
        x -= Math.copySign(t, x);
        y -= Math.copySign(t, y);
        float s = max / (float) Math.sqrt(x * x + y * y + z * z);
        return new float[] {x * s, y * s, z * s};
    }

    /**
     * The quaternion filter in the reference decoder's float32 operation order (which the specification's one unit in
     * the last place allows; the order decides ties): components scaled by {@code (32767 / √2) / one} straight to the
     * output range, and {@code w = scale × √(2·one² − (x² + (y² + z²)))} from the raw integers.
     */
    private static void quaternion(byte[] d, int count) {
        for (int i = 0; i < count; i++) {
            int o = i * 8;
            int w3 = getShort(d, o + 6);
            float one = w3 | 3;
            float scale = QUATERNION_SCALE / one;
            float oneSquared = one * one;
            float x = getShort(d, o);
            float y = getShort(d, o + 2);
            float z = getShort(d, o + 4);
            float ww = (oneSquared + oneSquared) - (x * x + (y * y + z * z));
            float w = scale * (float) Math.sqrt(Math.max(ww, 0f));
            int largest = w3 & 3;
            putShort(d, o + ((largest + 1) & 3) * 2, round(scale * x));
            putShort(d, o + ((largest + 2) & 3) * 2, round(scale * y));
            putShort(d, o + ((largest + 3) & 3) * 2, round(scale * z));
            putShort(d, o + largest * 2, round(w));
        }
    }

    private static void exponential(byte[] d, int values) {
        for (int i = 0; i < values; i++) {
            int o = i * 4;
            int v = (d[o] & 0xFF) | (d[o + 1] & 0xFF) << 8 | (d[o + 2] & 0xFF) << 16 | d[o + 3] << 24;
            int e = v >> 24;
            int m = (v << 8) >> 8;
            int bits = Float.floatToRawIntBits(Math.scalb((float) m, e));
            d[o] = (byte) bits;
            d[o + 1] = (byte) (bits >>> 8);
            d[o + 2] = (byte) (bits >>> 16);
            d[o + 3] = (byte) (bits >>> 24);
        }
    }

    private static void color8(byte[] d, int count) {
        for (int i = 0; i < count; i++) {
            int o = i * 4;
            int[] rgba = color(d[o] & 0xFF, d[o + 1], d[o + 2], d[o + 3] & 0xFF, 255f);
            for (int k = 0; k < 4; k++) {
                d[o + k] = (byte) rgba[k];
            }
        }
    }

    private static void color16(byte[] d, int count) {
        for (int i = 0; i < count; i++) {
            int o = i * 8;
            int[] rgba = color(getShort(d, o) & 0xFFFF, getShort(d, o + 2), getShort(d, o + 4),
                    getShort(d, o + 6) & 0xFFFF, 65535f);
            for (int k = 0; k < 4; k++) {
                putShort(d, o + 2 * k, rgba[k]);
            }
        }
    }

    /**
     * RGBA scaled to {@code max} from luma {@code y} (unsigned), chroma {@code co}, {@code cg} (signed) and an alpha
     * whose highest set bit marks the bit count K: {@code r = y + co − cg}, {@code g = y + cg}, {@code b = y − co − cg}.
     */
    private static int[] color(int y, int co, int cg, int alpha, float max) {
        int as = alpha == 0 ? 0 : (Integer.highestOneBit(alpha) << 1) - 1;
        int a = alpha & (as >> 1);
        a = (a << 1) | (a & 1);
        float ss = max / (float) as;
        return new int[] {round((y + co - cg) * ss), round((y + cg) * ss), round((y - co - cg) * ss), round(a * ss)};
    }

    /** Rounds half to even, as the reference's float snapping does. */
    private static int round(float v) {
        return (int) Math.rint(v);
    }

    private static int getShort(byte[] d, int o) {
        return (short) ((d[o] & 0xFF) | d[o + 1] << 8);
    }

    private static void putShort(byte[] d, int o, int v) {
        d[o] = (byte) v;
        d[o + 1] = (byte) (v >>> 8);
    }
}

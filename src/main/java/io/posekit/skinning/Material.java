package io.posekit.skinning;

import java.util.Arrays;
import java.util.Objects;

/**
 * The surface of a primitive, format-neutral, in glTF's metallic-roughness terms: a base colour (linear RGBA
 * factor, optionally multiplied by a texture sampled with the texture coordinate set {@code baseColorTexCoord}), metallic and roughness factors,
 * an emissive colour, how alpha is used and whether back faces are drawn. Importers fill in what their format
 * states and leave the glTF defaults for the rest.
 *
 * <p>Immutable; the arrays are copied on construction and on access.
 *
 * @param name the source material's name, or {@code null}
 * @param baseColorFactor 4 floats, linear RGBA (default 1, 1, 1, 1)
 * @param metallicFactor 0..1 (default 1)
 * @param roughnessFactor 0..1 (default 1)
 * @param emissiveFactor 3 floats, linear RGB (default 0, 0, 0)
 * @param alphaMode how alpha is interpreted
 * @param alphaCutoff the {@link AlphaMode#MASK} threshold (default 0.5)
 * @param doubleSided whether back faces are drawn too
 * @param baseColorTexture the base colour image, or {@code null}
 * @param baseColorTexCoord the texture coordinate set the base colour image is sampled with ({@code TEXCOORD_n}
 *     of the primitive, glTF's {@code texCoord}; default 0), {@code ≥ 0}
 * @param baseColorTransform how the base colour image's texture coordinates are transformed before sampling
 *     ({@code KHR_texture_transform}), or {@code null} for none
 * @param unlit whether the surface is drawn without lighting, its base colour as it is ({@code KHR_materials_unlit})
 * @param emissiveStrength the factor the emissive colour is multiplied by ({@code KHR_materials_emissive_strength};
 *     default 1), finite and {@code ≥ 0}
 */
public record Material(String name, float[] baseColorFactor, float metallicFactor, float roughnessFactor,
        float[] emissiveFactor, AlphaMode alphaMode, float alphaCutoff, boolean doubleSided, Texture baseColorTexture,
        int baseColorTexCoord, TextureTransform baseColorTransform, boolean unlit, float emissiveStrength) {

    /** How a material's alpha is used (glTF {@code alphaMode}). */
    public enum AlphaMode {
        OPAQUE, MASK, BLEND
    }

    /**
     * {@code KHR_texture_transform}: texture coordinates {@code uv} become {@code T(offset) · R(rotation) · S(scale) · uv},
     * with {@code R} rotating counter-clockwise in UV space ({@code u' = cos r · u + sin r · v},
     * {@code v' = −sin r · u + cos r · v}), in glTF's texture coordinate convention (origin top-left, v down).
     *
     * @param offsetU offset added to u, in texture widths
     * @param offsetV offset added to v, in texture heights
     * @param rotation radians
     * @param scaleU factor of u
     * @param scaleV factor of v
     */
    public record TextureTransform(float offsetU, float offsetV, float rotation, float scaleU, float scaleV) {

        public TextureTransform {
            if (!Float.isFinite(offsetU) || !Float.isFinite(offsetV) || !Float.isFinite(rotation)
                    || !Float.isFinite(scaleU) || !Float.isFinite(scaleV)) {
                throw new IllegalArgumentException("texture transform values must be finite");
            }
        }

        /** The transform as a 2×3 matrix, row-major: {@code u' = m0·u + m1·v + m2}, {@code v' = m3·u + m4·v + m5}. */
        public double[] matrix() {
            double c = Math.cos(rotation);
            double s = Math.sin(rotation);
            return new double[] {c * scaleU, s * scaleV, offsetU, -s * scaleU, c * scaleV, offsetV};
        }

        /** {@code uvs} (pairs) transformed, as a new array. */
        public float[] apply(float[] uvs) {
            double[] m = matrix();
            float[] out = new float[uvs.length];
            for (int i = 0; i + 1 < uvs.length; i += 2) {
                double u = uvs[i];
                double v = uvs[i + 1];
                out[i] = (float) (m[0] * u + m[1] * v + m[2]);
                out[i + 1] = (float) (m[3] * u + m[4] * v + m[5]);
            }
            return out;
        }
    }

    /**
     * An image used as a texture, as the encoded bytes the source embeds (decoded only to draw it).
     *
     * @param mimeType {@code image/png}, {@code image/jpeg} or {@code image/webp}
     * @param bytes the encoded image (shared storage; not to be modified)
     */
    public record Texture(String mimeType, byte[] bytes) {

        public static final String PNG = "image/png";
        public static final String JPEG = "image/jpeg";
        public static final String WEBP = "image/webp";

        public Texture {
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(bytes, "bytes");
        }

        /** The mime type of a PNG, JPEG or WebP image recognised by its signature, or {@code null}. */
        public static String sniff(byte[] data) {
            if (data.length >= 12 && data[0] == 'R' && data[1] == 'I' && data[2] == 'F' && data[3] == 'F'
                    && data[8] == 'W' && data[9] == 'E' && data[10] == 'B' && data[11] == 'P') {
                return WEBP;
            }
            if (data.length >= 8 && (data[0] & 0xFF) == 0x89 && data[1] == 'P' && data[2] == 'N' && data[3] == 'G'
                    && data[4] == 0x0D && data[5] == 0x0A && data[6] == 0x1A && data[7] == 0x0A) {
                return PNG;
            }
            if (data.length >= 3 && (data[0] & 0xFF) == 0xFF && (data[1] & 0xFF) == 0xD8 && (data[2] & 0xFF) == 0xFF) {
                return JPEG;
            }
            return null;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Texture t && t.mimeType.equals(mimeType) && Arrays.equals(t.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return 31 * mimeType.hashCode() + Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Texture[" + mimeType + ", " + bytes.length + " bytes]";
        }
    }

    /** glTF's default material: white, fully metallic and rough, opaque, single-sided, no texture. */
    public static final Material DEFAULT = new Material(null, new float[] {1, 1, 1, 1}, 1, 1, new float[3],
            AlphaMode.OPAQUE, 0.5f, false, null, 0);

    /** A material without texture transform, lit, emissive strength 1 (the formats without those extensions). */
    public Material(String name, float[] baseColorFactor, float metallicFactor, float roughnessFactor,
            float[] emissiveFactor, AlphaMode alphaMode, float alphaCutoff, boolean doubleSided, Texture baseColorTexture,
            int baseColorTexCoord) {
        this(name, baseColorFactor, metallicFactor, roughnessFactor, emissiveFactor, alphaMode, alphaCutoff, doubleSided,
                baseColorTexture, baseColorTexCoord, null, false, 1);
    }

    public Material {
        baseColorFactor = checked(baseColorFactor, 4, "baseColorFactor").clone();
        emissiveFactor = checked(emissiveFactor, 3, "emissiveFactor").clone();
        Objects.requireNonNull(alphaMode, "alphaMode");
        if (!Float.isFinite(metallicFactor) || !Float.isFinite(roughnessFactor) || !Float.isFinite(alphaCutoff)) {
            throw new IllegalArgumentException("material factors must be finite");
        }
        if (baseColorTexCoord < 0) {
            throw new IllegalArgumentException("baseColorTexCoord " + baseColorTexCoord + " is negative");
        }
        if (!Float.isFinite(emissiveStrength) || emissiveStrength < 0) {
            throw new IllegalArgumentException("emissiveStrength " + emissiveStrength + " must be finite and ≥ 0");
        }
    }

    /** A default material with the given name, base colour and double-sidedness (the rest glTF defaults). */
    public static Material of(String name, float[] baseColorFactor, boolean doubleSided) {
        return new Material(name, baseColorFactor, 1, 1, new float[3], AlphaMode.OPAQUE, 0.5f, doubleSided, null, 0);
    }

    private static float[] checked(float[] v, int n, String what) {
        if (v == null || v.length != n) {
            throw new IllegalArgumentException(what + " must have " + n + " components");
        }
        for (float f : v) {
            if (!Float.isFinite(f)) {
                throw new IllegalArgumentException(what + " must be finite");
            }
        }
        return v;
    }

    @Override
    public float[] baseColorFactor() {
        return baseColorFactor.clone();
    }

    @Override
    public float[] emissiveFactor() {
        return emissiveFactor.clone();
    }

    /** A copy without the base colour texture (nor its transform). */
    public Material withoutTexture() {
        return baseColorTexture == null ? this : new Material(name, baseColorFactor, metallicFactor, roughnessFactor,
                emissiveFactor, alphaMode, alphaCutoff, doubleSided, null, 0, null, unlit, emissiveStrength);
    }

    /** The emissive colour as drawn: {@code emissiveFactor × emissiveStrength}, linear RGB. */
    public float[] emissive() {
        return new float[] {emissiveFactor[0] * emissiveStrength, emissiveFactor[1] * emissiveStrength,
            emissiveFactor[2] * emissiveStrength};
    }

    /** Approximate heap footprint in bytes (the texture's bytes included). */
    public long footprintBytes() {
        return 160 + (name == null ? 0 : 40 + 2L * name.length())
                + (baseColorTexture == null ? 0 : 48 + baseColorTexture.bytes().length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Material m && Objects.equals(m.name, name) && Arrays.equals(m.baseColorFactor, baseColorFactor)
                && Float.compare(m.metallicFactor, metallicFactor) == 0 && Float.compare(m.roughnessFactor, roughnessFactor) == 0
                && Arrays.equals(m.emissiveFactor, emissiveFactor) && m.alphaMode == alphaMode
                && Float.compare(m.alphaCutoff, alphaCutoff) == 0 && m.doubleSided == doubleSided
                && Objects.equals(m.baseColorTexture, baseColorTexture) && m.baseColorTexCoord == baseColorTexCoord
                && Objects.equals(m.baseColorTransform, baseColorTransform) && m.unlit == unlit
                && Float.compare(m.emissiveStrength, emissiveStrength) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(baseColorFactor), metallicFactor, roughnessFactor,
                Arrays.hashCode(emissiveFactor), alphaMode, alphaCutoff, doubleSided, baseColorTexture, baseColorTexCoord,
                baseColorTransform, unlit, emissiveStrength);
    }

    @Override
    public String toString() {
        return "Material[" + name + ", baseColor " + Arrays.toString(baseColorFactor) + ", metallic " + metallicFactor
                + ", roughness " + roughnessFactor + ", " + alphaMode + (doubleSided ? ", double-sided" : "")
                + (baseColorTexture == null ? "" : ", " + baseColorTexture
                        + (baseColorTexCoord == 0 ? "" : " on TEXCOORD_" + baseColorTexCoord)
                        + (baseColorTransform == null ? "" : " " + baseColorTransform))
                + (unlit ? ", unlit" : "") + (emissiveStrength == 1 ? "" : ", emissive strength " + emissiveStrength) + "]";
    }
}

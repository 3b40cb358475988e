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
 */
public record Material(String name, float[] baseColorFactor, float metallicFactor, float roughnessFactor,
        float[] emissiveFactor, AlphaMode alphaMode, float alphaCutoff, boolean doubleSided, Texture baseColorTexture,
        int baseColorTexCoord) {

    /** How a material's alpha is used (glTF {@code alphaMode}). */
    public enum AlphaMode {
        OPAQUE, MASK, BLEND
    }

    /**
     * An image used as a texture, as the encoded bytes the source embeds (never decoded).
     *
     * @param mimeType {@code image/png} or {@code image/jpeg}
     * @param bytes the encoded image (shared storage; not to be modified)
     */
    public record Texture(String mimeType, byte[] bytes) {

        public static final String PNG = "image/png";
        public static final String JPEG = "image/jpeg";

        public Texture {
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(bytes, "bytes");
        }

        /** The mime type of a PNG or JPEG image recognised by its signature, or {@code null}. */
        public static String sniff(byte[] data) {
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

    /** A copy without the base colour texture. */
    public Material withoutTexture() {
        return baseColorTexture == null ? this : new Material(name, baseColorFactor, metallicFactor, roughnessFactor,
                emissiveFactor, alphaMode, alphaCutoff, doubleSided, null, 0);
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
                && Objects.equals(m.baseColorTexture, baseColorTexture) && m.baseColorTexCoord == baseColorTexCoord;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, Arrays.hashCode(baseColorFactor), metallicFactor, roughnessFactor,
                Arrays.hashCode(emissiveFactor), alphaMode, alphaCutoff, doubleSided, baseColorTexture, baseColorTexCoord);
    }

    @Override
    public String toString() {
        return "Material[" + name + ", baseColor " + Arrays.toString(baseColorFactor) + ", metallic " + metallicFactor
                + ", roughness " + roughnessFactor + ", " + alphaMode + (doubleSided ? ", double-sided" : "")
                + (baseColorTexture == null ? "" : ", " + baseColorTexture
                        + (baseColorTexCoord == 0 ? "" : " on TEXCOORD_" + baseColorTexCoord)) + "]";
    }
}

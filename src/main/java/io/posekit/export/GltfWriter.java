package io.posekit.export;

import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A glTF 2.0 document being built: its top-level arrays as JSON text and the one binary buffer as blocks, and how
 * the document is written out — as a GLB (the buffer is the BIN chunk) or as glTF JSON (the buffer a base64
 * {@code data:} URI). The one place that lays out buffer views and accessors, writes materials, textures and mesh
 * primitives' common attributes, for both the static posed GLB ({@link GlbWriter}) and the animated export
 * ({@link AnimatedGltf}).
 *
 * <p>Layout: every accessor has its own tightly packed buffer view (no {@code byteStride}) starting on a 4-byte
 * boundary; views of vertex attributes have {@code target} 34962, views of indices 34963, others none. A material is
 * written when first used (without its texture for primitives that lack the texture coordinate set it samples); its base colour
 * image goes into a buffer view of its own, the same image once however many materials use it. {@code min} and
 * {@code max} are written as the exact decimal value of the float32 they bound.
 *
 * <p>Not thread-safe: one builder per document.
 */
final class GltfWriter {

    /** {@code glTF}, little-endian. */
    static final int MAGIC = 0x46546C67;
    static final int VERSION = 2;
    static final int CHUNK_JSON = 0x4E4F534A;
    static final int CHUNK_BIN = 0x004E4942;

    static final int ARRAY_BUFFER = 34962;
    static final int ELEMENT_ARRAY_BUFFER = 34963;
    static final int UNSIGNED_BYTE = 5121;
    static final int UNSIGNED_SHORT = 5123;
    static final int UNSIGNED_INT = 5125;
    static final int FLOAT = 5126;

    /** The most bytes one output may take (a Java array, and GLB's 32-bit lengths). */
    static final long MAX_BYTES = Integer.MAX_VALUE - 16;

    final List<Block> blocks = new ArrayList<>();
    long binLength;
    final List<String> bufferViews = new ArrayList<>();
    final List<String> accessors = new ArrayList<>();
    final List<String> nodes = new ArrayList<>();
    final List<String> meshes = new ArrayList<>();
    final List<String> skins = new ArrayList<>();
    final List<String> animations = new ArrayList<>();
    final List<String> materials = new ArrayList<>();
    final List<String> textures = new ArrayList<>();
    final List<String> images = new ArrayList<>();
    /** The scene's root nodes. */
    final List<Integer> sceneNodes = new ArrayList<>();
    private final Map<Material, Integer> withUv = new IdentityHashMap<>();
    private final Map<Material, Integer> withoutUv = new IdentityHashMap<>();
    private final Map<Material.Texture, Integer> imageIndex = new IdentityHashMap<>();
    /** Extensions the document uses, and those of them a reader must support, in order of first use. */
    final Set<String> extensionsUsed = new LinkedHashSet<>();
    final Set<String> extensionsRequired = new LinkedHashSet<>();

    // ---------------------------------------------------------------- blocks, views, accessors

    /** Bytes of the buffer to write at {@code offset}. */
    abstract static class Block {
        int offset;
        int length;

        abstract void fill(ByteBuffer bin);
    }

    static final class FloatBlock extends Block {
        final float[] values;

        FloatBlock(float[] values) {
            this.values = values;
            this.length = 4 * values.length;
        }

        @Override
        void fill(ByteBuffer bin) {
            bin.asFloatBuffer().put(values);
        }
    }

    /** Unsigned integers of 1, 2 or 4 bytes each (the caller checked they fit). */
    static final class IntBlock extends Block {
        final int[] values;
        final int width;

        IntBlock(int[] values, int width) {
            this.values = values;
            this.width = width;
            this.length = width * values.length;
        }

        @Override
        void fill(ByteBuffer bin) {
            switch (width) {
                case 1 -> {
                    for (int v : values) {
                        bin.put((byte) v);
                    }
                }
                case 2 -> {
                    for (int v : values) {
                        bin.putShort((short) v);
                    }
                }
                default -> bin.asIntBuffer().put(values);
            }
        }
    }

    static final class BytesBlock extends Block {
        final byte[] values;

        BytesBlock(byte[] values) {
            this.values = values;
            this.length = values.length;
        }

        @Override
        void fill(ByteBuffer bin) {
            bin.put(values);
        }
    }

    /** The component type of unsigned integers of {@code width} bytes. */
    static int unsignedType(int width) {
        return switch (width) {
            case 1 -> UNSIGNED_BYTE;
            case 2 -> UNSIGNED_SHORT;
            default -> UNSIGNED_INT;
        };
    }

    /**
     * Adds a block, its buffer view and an accessor over it; returns the accessor's index.
     *
     * @param more further accessor properties as JSON text starting with a comma (e.g. {@code min}, {@code max}), or
     *     empty
     */
    int accessor(Block block, int target, int componentType, String type, int count, String more) {
        int view = view(block, target);
        accessors.add("{\"bufferView\":" + view + ",\"componentType\":" + componentType + ",\"count\":" + count
                + ",\"type\":\"" + type + "\"" + more + "}");
        return accessors.size() - 1;
    }

    /** A float accessor with no buffer view: all zeros, as the specification defines ({@code more} as above). */
    int zeroAccessor(String type, int count, String more) {
        accessors.add("{\"componentType\":" + FLOAT + ",\"count\":" + count + ",\"type\":\"" + type + "\"" + more + "}");
        return accessors.size() - 1;
    }

    int view(Block block, int target) {
        block.offset = (int) Math.min(binLength, Integer.MAX_VALUE);
        blocks.add(block);
        binLength += align4(block.length);
        if (binLength > MAX_BYTES) {
            throw new IllegalArgumentException("the glTF buffer would take more than " + MAX_BYTES + " bytes");
        }
        bufferViews.add("{\"buffer\":0,\"byteOffset\":" + block.offset + ",\"byteLength\":" + block.length
                + (target == 0 ? "" : ",\"target\":" + target) + "}");
        return bufferViews.size() - 1;
    }

    static int align4(int n) {
        return (n + 3) & ~3;
    }

    /** A float VEC3 vertex attribute with its {@code min} and {@code max}; the values must be finite. */
    int vec3WithBounds(float[] values, int count) {
        float[] min = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
        float[] max = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = 0; i < values.length; i++) {
            int c = i % 3;
            min[c] = Math.min(min[c], values[i]);
            max[c] = Math.max(max[c], values[i]);
        }
        return accessor(new FloatBlock(values), ARRAY_BUFFER, FLOAT, "VEC3", count,
                ",\"min\":" + GltfJson.exactFloats(min) + ",\"max\":" + GltfJson.exactFloats(max));
    }

    // ---------------------------------------------------------------- primitives

    /**
     * The JSON of a primitive of {@code source} with {@code positions} (3 per vertex, all finite) and
     * {@code normals} (3 per vertex, or {@code null}; re-normalised, and left out when one has no direction), its
     * {@code TEXCOORD_0}, {@code TEXCOORD_1}, … (every set up to the first that is absent or not finite), {@code COLOR_0} (float RGBA, when present), indices (unsigned short when every index is below
     * 65535, else unsigned int), material and mode; {@code more} adds attributes and properties. {@code null} when
     * the primitive draws nothing (no vertices or an empty index list).
     *
     * @param where names the vertices in the message of a non-finite one, e.g. {@code mesh 0 primitive 1: vertex}
     * @throws IllegalArgumentException when a position is not finite
     */
    String primitive(Primitive source, float[] positions, float[] normals, String where, PrimitiveExtras more) {
        int n = source.vertexCount();
        int[] indices = source.indices();
        if (n == 0 || (indices != null && indices.length == 0)) {
            return null;
        }
        for (int i = 0; i < positions.length; i++) {
            if (!Float.isFinite(positions[i])) {
                throw new IllegalArgumentException(where + " " + i / 3 + " is not finite");
            }
        }
        StringBuilder attributes = new StringBuilder();
        attributes.append("\"POSITION\":").append(vec3WithBounds(positions, n));
        float[] unit = unitNormals(normals);
        if (unit != null) {
            attributes.append(",\"NORMAL\":").append(accessor(new FloatBlock(unit), ARRAY_BUFFER, FLOAT, "VEC3", n, ""));
        }
        // every texture coordinate set in order, up to the first that is not finite (sets are numbered densely)
        List<float[]> sets = source.texcoordSets();
        int written = 0;
        while (written < sets.size() && finite(sets.get(written)) != null) {
            attributes.append(",\"TEXCOORD_").append(written).append("\":")
                    .append(accessor(new FloatBlock(sets.get(written)), ARRAY_BUFFER, FLOAT, "VEC2", n, ""));
            written++;
        }
        if (source.colors() != null) {
            // float RGBA: the importers' colours are floats already, so this is exact whatever the source stored
            attributes.append(",\"COLOR_0\":").append(accessor(new FloatBlock(source.colors()), ARRAY_BUFFER, FLOAT, "VEC4",
                    n, ""));
        }
        String extra = more == null ? "" : more.append(this, attributes, unit != null);
        StringBuilder prim = new StringBuilder("{\"attributes\":{").append(attributes).append('}');
        if (indices != null) {
            int maxIndex = 0;
            for (int i : indices) {
                maxIndex = Math.max(maxIndex, i);
            }
            int width = maxIndex < 0xFFFF ? 2 : 4;
            prim.append(",\"indices\":").append(accessor(new IntBlock(indices, width), ELEMENT_ARRAY_BUFFER,
                    unsignedType(width), "SCALAR", indices.length, ""));
        }
        if (source.material() != null) {
            prim.append(",\"material\":").append(material(source.material(), written));
        }
        if (source.mode() != PrimitiveMode.TRIANGLES) {
            prim.append(",\"mode\":").append(source.mode().ordinal());
        }
        return prim.append(extra).append('}').toString();
    }

    /** What a primitive carries beyond {@link #primitive}'s common attributes. */
    interface PrimitiveExtras {

        /**
         * Appends further attributes (each starting with a comma) to {@code attributes}; returns further primitive
         * properties as JSON text starting with a comma (e.g. {@code targets}), or empty.
         *
         * @param hasNormals whether {@code NORMAL} was written
         */
        String append(GltfWriter doc, StringBuilder attributes, boolean hasNormals);
    }

    /** Unit normals, or {@code null} when there are none or one cannot be normalised. */
    static float[] unitNormals(float[] normals) {
        return unitVectors(normals, 3);
    }

    /**
     * Vectors of {@code stride} floats (3, or 4 for tangents) with a unit direction {@code xyz} and, for tangents,
     * {@code w} = ±1 (its sign); {@code null} when there are none or one has no direction (or a NaN handedness).
     */
    static float[] unitVectors(float[] vectors, int stride) {
        if (vectors == null) {
            return null;
        }
        float[] out = new float[vectors.length];
        for (int i = 0; i < vectors.length; i += stride) {
            double x = vectors[i];
            double y = vectors[i + 1];
            double z = vectors[i + 2];
            double len = Math.sqrt(x * x + y * y + z * z);
            if (!(len > 1e-20) || !Double.isFinite(len) || stride == 4 && Float.isNaN(vectors[i + 3])) {
                return null;
            }
            out[i] = (float) (x / len);
            out[i + 1] = (float) (y / len);
            out[i + 2] = (float) (z / len);
            if (stride == 4) {
                out[i + 3] = vectors[i + 3] < 0 ? -1 : 1;
            }
        }
        return out;
    }

    static float[] finite(float[] values) {
        if (values == null) {
            return null;
        }
        for (float v : values) {
            if (!Float.isFinite(v)) {
                return null;
            }
        }
        return values;
    }

    // ---------------------------------------------------------------- materials

    /**
     * The index of material {@code m} for a primitive with {@code texcoordSets} texture coordinate sets written: with
     * its base colour texture (and {@code texCoord} when not 0) when the primitive has the set it samples, else
     * without (a texture without its coordinates cannot be drawn).
     */
    int material(Material m, int texcoordSets) {
        boolean hasUv = m.baseColorTexCoord() < texcoordSets;
        Map<Material, Integer> known = hasUv ? withUv : withoutUv;
        Integer index = known.get(m);
        if (index != null) {
            return index;
        }
        StringBuilder pbr = new StringBuilder();
        float[] base = m.baseColorFactor();
        if (base[0] != 1 || base[1] != 1 || base[2] != 1 || base[3] != 1) {
            pbr.append("\"baseColorFactor\":").append(GltfJson.floats(base));
        }
        if (m.metallicFactor() != 1) {
            pbr.append(pbr.isEmpty() ? "" : ",").append("\"metallicFactor\":").append(GltfJson.number(m.metallicFactor()));
        }
        if (m.roughnessFactor() != 1) {
            pbr.append(pbr.isEmpty() ? "" : ",").append("\"roughnessFactor\":").append(GltfJson.number(m.roughnessFactor()));
        }
        if (hasUv && m.baseColorTexture() != null) {
            pbr.append(pbr.isEmpty() ? "" : ",").append("\"baseColorTexture\":{\"index\":")
                    .append(texture(m.baseColorTexture()))
                    .append(m.baseColorTexCoord() == 0 ? "" : ",\"texCoord\":" + m.baseColorTexCoord());
            Material.TextureTransform t = m.baseColorTransform();
            if (t != null) {
                extensionsUsed.add("KHR_texture_transform");
                pbr.append(",\"extensions\":{\"KHR_texture_transform\":{\"offset\":")
                        .append(GltfJson.floats(new float[] {t.offsetU(), t.offsetV()}))
                        .append(",\"rotation\":").append(GltfJson.number(t.rotation()))
                        .append(",\"scale\":").append(GltfJson.floats(new float[] {t.scaleU(), t.scaleV()})).append("}}");
            }
            pbr.append('}');
        }
        List<String> fields = new ArrayList<>();
        if (m.name() != null) {
            fields.add("\"name\":" + GltfJson.string(m.name()));
        }
        fields.add("\"pbrMetallicRoughness\":{" + pbr + "}");
        float[] emissive = m.emissiveFactor();
        if (emissive[0] != 0 || emissive[1] != 0 || emissive[2] != 0) {
            fields.add("\"emissiveFactor\":" + GltfJson.floats(emissive));
        }
        if (m.alphaMode() != Material.AlphaMode.OPAQUE) {
            fields.add("\"alphaMode\":\"" + m.alphaMode().name() + "\"");
        }
        if (m.alphaMode() == Material.AlphaMode.MASK && m.alphaCutoff() != 0.5f) {
            fields.add("\"alphaCutoff\":" + GltfJson.number(m.alphaCutoff()));
        }
        if (m.doubleSided()) {
            fields.add("\"doubleSided\":true");
        }
        List<String> extensions = new ArrayList<>();
        if (m.unlit()) {
            extensionsUsed.add("KHR_materials_unlit");
            extensions.add("\"KHR_materials_unlit\":{}");
        }
        if (m.emissiveStrength() != 1) {
            extensionsUsed.add("KHR_materials_emissive_strength");
            extensions.add("\"KHR_materials_emissive_strength\":{\"emissiveStrength\":"
                    + GltfJson.number(m.emissiveStrength()) + "}");
        }
        if (!extensions.isEmpty()) {
            fields.add("\"extensions\":{" + String.join(",", extensions) + "}");
        }
        materials.add("{" + String.join(",", fields) + "}");
        known.put(m, materials.size() - 1);
        return materials.size() - 1;
    }

    private int texture(Material.Texture t) {
        Integer image = imageIndex.get(t);
        if (image == null) {
            int view = view(new BytesBlock(t.bytes()), 0);
            images.add("{\"bufferView\":" + view + ",\"mimeType\":" + GltfJson.string(t.mimeType()) + "}");
            image = images.size() - 1;
            imageIndex.put(t, image);
            if (Material.Texture.WEBP.equals(t.mimeType())) {
                // core glTF sources are PNG or JPEG only: a WebP image goes under its extension, which is then required
                extensionsUsed.add("EXT_texture_webp");
                extensionsRequired.add("EXT_texture_webp");
                textures.add("{\"extensions\":{\"EXT_texture_webp\":{\"source\":" + image + "}}}");
            } else {
                textures.add("{\"source\":" + image + "}");
            }
        }
        return image; // one texture per image, same index
    }

    // ---------------------------------------------------------------- output

    /**
     * The document's JSON text.
     *
     * @param extras written as {@code asset.extras} (string, number, boolean, {@code null}, or nested map values, in
     *     the map's order), or {@code null} for none
     * @param bufferUri the buffer's {@code uri} (glTF JSON), or {@code null} (GLB: the BIN chunk)
     */
    String json(Map<String, ?> extras, String bufferUri) {
        StringBuilder s = new StringBuilder("{\"asset\":{\"version\":\"2.0\",\"generator\":\"" + GlbWriter.GENERATOR + "\"");
        if (extras != null && !extras.isEmpty()) {
            s.append(",\"extras\":").append(GltfJson.object(extras));
        }
        s.append('}');
        if (!extensionsUsed.isEmpty()) {
            s.append(",\"extensionsUsed\":").append(strings(extensionsUsed));
        }
        if (!extensionsRequired.isEmpty()) {
            s.append(",\"extensionsRequired\":").append(strings(extensionsRequired));
        }
        List<String> roots = new ArrayList<>();
        for (int i : sceneNodes) {
            roots.add(Integer.toString(i));
        }
        s.append(",\"scene\":0,\"scenes\":[{\"nodes\":[").append(String.join(",", roots)).append("]}]");
        array(s, "nodes", nodes);
        array(s, "meshes", meshes);
        array(s, "skins", skins);
        array(s, "materials", materials);
        array(s, "textures", textures);
        array(s, "images", images);
        array(s, "animations", animations);
        array(s, "accessors", accessors);
        array(s, "bufferViews", bufferViews);
        if (binLength > 0) {
            s.append(",\"buffers\":[{\"byteLength\":").append(binLength);
            if (bufferUri != null) {
                s.append(",\"uri\":").append(GltfJson.string(bufferUri));
            }
            s.append("}]");
        }
        return s.append('}').toString();
    }

    private static String strings(Set<String> names) {
        List<String> quoted = new ArrayList<>();
        for (String n : names) {
            quoted.add(GltfJson.string(n));
        }
        return "[" + String.join(",", quoted) + "]";
    }

    private static void array(StringBuilder s, String name, List<String> elements) {
        if (!elements.isEmpty()) {
            s.append(",\"").append(name).append("\":[").append(String.join(",", elements)).append(']');
        }
    }

    /** The buffer's bytes, zero-padded to a multiple of 4. */
    private void fillBuffer(ByteBuffer bin) {
        for (Block b : blocks) {
            b.fill(bin.position(b.offset));
        }
    }

    /**
     * The document as a GLB: the JSON chunk padded with spaces, the BIN chunk (when there is a buffer) with zeros.
     *
     * @throws IllegalArgumentException when it would exceed the bytes one output can hold
     */
    byte[] glb(Map<String, ?> extras) {
        byte[] json = json(extras, null).getBytes(StandardCharsets.UTF_8);
        int jsonLength = align4(json.length);
        long total = 12L + 8 + jsonLength + (binLength > 0 ? 8 + binLength : 0);
        if (total > MAX_BYTES) {
            throw new IllegalArgumentException("the GLB would take " + total + " bytes; at most " + MAX_BYTES
                    + " can be written");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(VERSION).putInt((int) total);
        out.putInt(jsonLength).putInt(CHUNK_JSON).put(json);
        for (int i = json.length; i < jsonLength; i++) {
            out.put((byte) ' ');
        }
        if (binLength > 0) {
            out.putInt((int) binLength).putInt(CHUNK_BIN);
            fillBuffer(out.slice().order(ByteOrder.LITTLE_ENDIAN));
        }
        return out.array();
    }

    /**
     * The document as glTF JSON (UTF-8) with the buffer embedded as a base64 {@code data:} URI.
     *
     * @throws IllegalArgumentException when it would exceed the bytes one output can hold
     */
    byte[] gltfJson(Map<String, ?> extras) {
        String uri = null;
        if (binLength > 0) {
            if (binLength / 3 * 4 + 64 > MAX_BYTES / 2) {
                throw new IllegalArgumentException("the embedded buffer of " + binLength + " bytes is too large for glTF "
                        + "JSON; ask for the GLB");
            }
            ByteBuffer bin = ByteBuffer.allocate((int) binLength).order(ByteOrder.LITTLE_ENDIAN);
            fillBuffer(bin);
            uri = "data:application/octet-stream;base64," + Base64.getEncoder().encodeToString(bin.array());
        }
        return json(extras, uri).getBytes(StandardCharsets.UTF_8);
    }
}

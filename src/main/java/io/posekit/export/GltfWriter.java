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
 * <p>Compression ({@link Compression}): when it quantizes, {@link #positions} set by the caller, positions, normals,
 * tangents and unit-range texture coordinates are written as normalized integers ({@code KHR_mesh_quantization});
 * int16 positions and int8 normals take a {@code byteStride} (8 and 4) so each element starts on 4 bytes. With
 * {@link Compression#MESHOPT} the output's layout is made once, when first written: every view the meshopt codecs
 * shrink is compressed into buffer 0 and declared with {@code EXT_meshopt_compression} over its uncompressed layout
 * in buffer 1, a fallback buffer without data; the other views stay in buffer 0. With {@link Compression#DRACO} the
 * document is written as with {@link Compression#NONE} and then its triangle primitives compressed with
 * {@code KHR_draco_mesh_compression} ({@link DracoCompression}) when it is output.
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
    static final int BYTE = 5120;
    static final int UNSIGNED_BYTE = 5121;
    static final int SHORT = 5122;
    static final int UNSIGNED_SHORT = 5123;
    static final int UNSIGNED_INT = 5125;
    static final int FLOAT = 5126;

    /** The most bytes one output may take (a Java array, and GLB's 32-bit lengths). */
    static final long MAX_BYTES = Integer.MAX_VALUE - 16;

    final List<Block> blocks = new ArrayList<>();
    long binLength;
    /** Every buffer view: its block and {@code target} (0 for none), in index order. */
    final List<View> views = new ArrayList<>();
    /** How the vertex data is stored. */
    final Compression compression;
    /**
     * The dequantization of the positions {@link #primitive} writes while {@link #compression} quantizes, set by the
     * caller (which applies it through a node transform or the inverse bind matrices); {@code null} for float32.
     */
    PositionQuantization positions;
    /** The buffer layout of the output, made once when first written. */
    private Layout layout;
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

    /** A document stored as {@code compression} says. */
    GltfWriter(Compression compression) {
        this.compression = java.util.Objects.requireNonNull(compression, "compression");
    }

    /** Bytes of the buffer to write at {@code offset}. */
    abstract static class Block {
        int offset;
        int length;
        /** The bufferView's {@code byteStride}, or 0 for none (tightly packed). */
        int byteStride;
        /**
         * Bytes per element for {@code EXT_meshopt_compression} mode ATTRIBUTES (a multiple of 4, at most 256), or 0
         * when the block is not compressed (images, elements of other sizes).
         */
        int element;
        /** Elements in the block (with {@link #element}). */
        int count;

        abstract void fill(ByteBuffer bin);

        /** The block's bytes, little-endian. */
        byte[] bytes() {
            ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
            fill(b);
            return b.array();
        }
    }

    /** A buffer view: its block and {@code target} (0 for none). */
    record View(Block block, int target) {
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
        /** Indices of a triangle list (meshopt mode TRIANGLES), or of anything else (INDICES); for index views only. */
        boolean triangles;

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
        int size = block.byteStride > 0 ? block.byteStride : componentSize(componentType) * components(type);
        if (target != ELEMENT_ARRAY_BUFFER && size % 4 == 0 && size <= 256 && (long) size * count == block.length) {
            block.element = size;
            block.count = count;
        }
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
        views.add(new View(block, target));
        return views.size() - 1;
    }

    static int componentSize(int componentType) {
        return switch (componentType) {
            case BYTE, UNSIGNED_BYTE -> 1;
            case SHORT, UNSIGNED_SHORT -> 2;
            default -> 4;
        };
    }

    static int components(String type) {
        return switch (type) {
            case "SCALAR" -> 1;
            case "VEC2" -> 2;
            case "VEC3" -> 3;
            case "VEC4", "MAT2" -> 4;
            case "MAT3" -> 9;
            default -> 16;
        };
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
        attributes.append("\"POSITION\":").append(this.positions != null ? quantizedPositions(positions, n)
                : vec3WithBounds(positions, n));
        float[] unit = unitNormals(normals);
        if (unit != null) {
            attributes.append(",\"NORMAL\":").append(this.positions != null ? snorm8(unit, 3, n)
                    : accessor(new FloatBlock(unit), ARRAY_BUFFER, FLOAT, "VEC3", n, ""));
        }
        // every texture coordinate set in order, up to the first that is not finite (sets are numbered densely)
        List<float[]> sets = source.texcoordSets();
        int written = 0;
        while (written < sets.size() && finite(sets.get(written)) != null) {
            float[] uv = sets.get(written);
            attributes.append(",\"TEXCOORD_").append(written).append("\":")
                    .append(this.positions != null && inUnitRange(uv) ? unorm16(uv, n)
                            : accessor(new FloatBlock(uv), ARRAY_BUFFER, FLOAT, "VEC2", n, ""));
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
            IntBlock block = new IntBlock(indices, width);
            block.triangles = source.mode() == PrimitiveMode.TRIANGLES && indices.length % 3 == 0;
            prim.append(",\"indices\":").append(accessor(block, ELEMENT_ARRAY_BUFFER, unsignedType(width), "SCALAR",
                    indices.length, ""));
        }
        if (source.material() != null) {
            prim.append(",\"material\":").append(material(source.material(), written));
        }
        if (source.mode() != PrimitiveMode.TRIANGLES) {
            prim.append(",\"mode\":").append(source.mode().ordinal());
        }
        return prim.append(extra).append('}').toString();
    }

    // ---------------------------------------------------------------- quantized attributes (KHR_mesh_quantization)

    private void quantized() {
        extensionsUsed.add("KHR_mesh_quantization");
        extensionsRequired.add("KHR_mesh_quantization");
    }

    /**
     * Positions (3 per vertex, finite) as int16 normalized VEC3 through {@link #positions}, 8 bytes per vertex
     * ({@code byteStride} 8: vertex attribute elements are 4-byte aligned); {@code min}/{@code max} are the stored
     * integers (glTF bounds ignore {@code normalized}).
     */
    int quantizedPositions(float[] values, int n) {
        quantized();
        byte[] data = positions.quantizePadded(values);
        int[] min = {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE};
        int[] max = {Integer.MIN_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE};
        for (int v = 0; v < n; v++) {
            for (int c = 0; c < 3; c++) {
                int q = (short) ((data[8 * v + 2 * c] & 0xFF) | data[8 * v + 2 * c + 1] << 8);
                min[c] = Math.min(min[c], q);
                max[c] = Math.max(max[c], q);
            }
        }
        BytesBlock block = new BytesBlock(data);
        block.byteStride = 8;
        return accessor(block, ARRAY_BUFFER, SHORT, "VEC3", n, ",\"normalized\":true,\"min\":" + ints(min)
                + ",\"max\":" + ints(max));
    }

    /**
     * Unit vectors ({@code components} 3 for normals, 4 for tangents whose w is ±1) as int8 normalized, 4 bytes per
     * vertex (a normal's fourth byte is padding: {@code byteStride} 4).
     */
    int snorm8(float[] unit, int components, int n) {
        quantized();
        byte[] data = new byte[4 * n];
        for (int v = 0; v < n; v++) {
            for (int c = 0; c < components; c++) {
                data[4 * v + c] = (byte) Math.max(-127, Math.min(127, Math.round(unit[components * v + c] * 127f)));
            }
        }
        BytesBlock block = new BytesBlock(data);
        block.byteStride = components == 3 ? 4 : 0;
        return accessor(block, ARRAY_BUFFER, BYTE, components == 3 ? "VEC3" : "VEC4", n, ",\"normalized\":true");
    }

    /** Texture coordinates in [0, 1] as uint16 normalized VEC2. */
    int unorm16(float[] uv, int n) {
        quantized();
        byte[] data = new byte[4 * n];
        for (int i = 0; i < 2 * n; i++) {
            int q = Math.round(uv[i] * 65535f);
            data[2 * i] = (byte) q;
            data[2 * i + 1] = (byte) (q >> 8);
        }
        return accessor(new BytesBlock(data), ARRAY_BUFFER, UNSIGNED_SHORT, "VEC2", n, ",\"normalized\":true");
    }

    static boolean inUnitRange(float[] values) {
        for (float v : values) {
            if (!(v >= 0 && v <= 1)) {
                return false;
            }
        }
        return true;
    }

    private static String ints(int[] v) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            b.append(i == 0 ? "" : ",").append(v[i]);
        }
        return b.append(']').toString();
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
        Layout l = layout(); // first: compression may add extensions
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
        array(s, "bufferViews", l.views);
        if (l.binLength > 0 || l.fallbackLength > 0) {
            s.append(",\"buffers\":[{\"byteLength\":").append(l.binLength);
            if (bufferUri != null) {
                s.append(",\"uri\":").append(GltfJson.string(bufferUri));
            }
            s.append('}');
            if (l.fallbackLength > 0) {
                s.append(",{\"byteLength\":").append(l.fallbackLength).append(",\"extensions\":{\"")
                        .append(MESHOPT).append("\":{\"fallback\":true}}}");
            }
            s.append(']');
        }
        return s.append('}').toString();
    }

    static final String MESHOPT = "EXT_meshopt_compression";

    /**
     * Where the output's bytes go: buffer 0 (the GLB BIN chunk or the embedded buffer) holds {@code blocks} at their
     * offsets; with {@link Compression#MESHOPT} buffer 1 is the fallback buffer without data, {@code fallbackLength}
     * bytes, that the compressed views' uncompressed layout refers to.
     */
    private record Layout(List<Block> blocks, long binLength, List<String> views, long fallbackLength) {
    }

    /** The layout, made on first use (the document is complete by then). */
    private Layout layout() {
        if (layout != null) {
            return layout;
        }
        List<String> json = new ArrayList<>();
        if (compression != Compression.MESHOPT) {
            for (View v : views) {
                json.add(viewJson(0, v.block().offset, v.block().length, v.block().byteStride, v.target(), ""));
            }
            layout = new Layout(blocks, binLength, json, 0);
            return layout;
        }
        List<Block> bin = new ArrayList<>();
        long binAt = 0;
        long fallbackAt = 0;
        for (View v : views) {
            Block b = v.block();
            String mode = null;
            int stride = 0;
            int count = 0;
            byte[] compressed = null;
            if (b.element > 0) {
                mode = "ATTRIBUTES";
                stride = b.element;
                count = b.count;
                compressed = io.posekit.asset.gltf.meshopt.MeshoptEncoder.encodeAttributes(b.bytes(), count, stride);
            } else if (v.target() == ELEMENT_ARRAY_BUFFER && b instanceof IntBlock ib && ib.width >= 2) {
                stride = ib.width;
                count = ib.values.length;
                mode = ib.triangles ? "TRIANGLES" : "INDICES";
                compressed = ib.triangles ? io.posekit.asset.gltf.meshopt.MeshoptEncoder.encodeTriangles(ib.values)
                        : io.posekit.asset.gltf.meshopt.MeshoptEncoder.encodeIndices(ib.values);
            }
            if (compressed == null || compressed.length >= b.length) {
                // not compressible, or not worth it (small views: the codec's tail alone takes 32 bytes)
                b.offset = (int) binAt;
                bin.add(b);
                json.add(viewJson(0, binAt, b.length, b.byteStride, v.target(), ""));
                binAt += align4(b.length);
                continue;
            }
            BytesBlock c = new BytesBlock(compressed);
            c.offset = (int) binAt;
            bin.add(c);
            String ext = ",\"extensions\":{\"" + MESHOPT + "\":{\"buffer\":0,\"byteOffset\":" + binAt
                    + ",\"byteLength\":" + compressed.length + ",\"byteStride\":" + stride + ",\"mode\":\"" + mode
                    + "\",\"count\":" + count + "}}";
            json.add(viewJson(1, fallbackAt, b.length, b.byteStride, v.target(), ext));
            binAt += align4(compressed.length);
            fallbackAt += align4(b.length);
        }
        if (fallbackAt > 0) {
            extensionsUsed.add(MESHOPT);
            extensionsRequired.add(MESHOPT);
        }
        layout = new Layout(bin, binAt, json, fallbackAt);
        return layout;
    }

    private static String viewJson(int buffer, long offset, int length, int byteStride, int target, String more) {
        return "{\"buffer\":" + buffer + ",\"byteOffset\":" + offset + ",\"byteLength\":" + length
                + (byteStride == 0 ? "" : ",\"byteStride\":" + byteStride)
                + (target == 0 ? "" : ",\"target\":" + target) + more + "}";
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
        for (Block b : layout().blocks()) {
            b.fill(bin.position(b.offset));
        }
    }

    /**
     * The document as a GLB: the JSON chunk padded with spaces, the BIN chunk (when there is a buffer) with zeros.
     *
     * @throws IllegalArgumentException when it would exceed the bytes one output can hold
     */
    byte[] glb(Map<String, ?> extras) {
        DracoCompression.Result draco = draco(extras);
        byte[] json = draco != null ? draco.json(null) : json(extras, null).getBytes(StandardCharsets.UTF_8);
        long binLength = draco != null ? draco.bin().length : layout().binLength();
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
            if (draco != null) {
                out.put(draco.bin());
            } else {
                fillBuffer(out.slice().order(ByteOrder.LITTLE_ENDIAN));
            }
        }
        return out.array();
    }

    /**
     * With {@link Compression#DRACO}, the document with its triangle primitives Draco-compressed
     * ({@link DracoCompression}); {@code null} otherwise.
     */
    private DracoCompression.Result draco(Map<String, ?> extras) {
        if (compression != Compression.DRACO) {
            return null;
        }
        long binLength = layout().binLength();
        if (binLength > MAX_BYTES) {
            throw new IllegalArgumentException("the buffer would take " + binLength + " bytes; at most " + MAX_BYTES
                    + " can be written");
        }
        ByteBuffer bin = ByteBuffer.allocate((int) binLength).order(ByteOrder.LITTLE_ENDIAN);
        fillBuffer(bin);
        return DracoCompression.apply(json(extras, null), bin.array());
    }

    /**
     * The document as glTF JSON (UTF-8) with the buffer embedded as a base64 {@code data:} URI.
     *
     * @throws IllegalArgumentException when it would exceed the bytes one output can hold
     */
    byte[] gltfJson(Map<String, ?> extras) {
        DracoCompression.Result draco = draco(extras);
        String uri = null;
        long binLength = draco != null ? draco.bin().length : layout().binLength();
        if (binLength > 0) {
            if (binLength / 3 * 4 + 64 > MAX_BYTES / 2) {
                throw new IllegalArgumentException("the embedded buffer of " + binLength + " bytes is too large for glTF "
                        + "JSON; ask for the GLB");
            }
            byte[] bytes = draco != null ? draco.bin() : null;
            if (bytes == null) {
                ByteBuffer bin = ByteBuffer.allocate((int) binLength).order(ByteOrder.LITTLE_ENDIAN);
                fillBuffer(bin);
                bytes = bin.array();
            }
            uri = "data:application/octet-stream;base64," + Base64.getEncoder().encodeToString(bytes);
        }
        return draco != null ? draco.json(uri) : json(extras, uri).getBytes(StandardCharsets.UTF_8);
    }
}

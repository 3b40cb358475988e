package io.posekit.export;

import io.posekit.skinning.Material;
import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes posed meshes as a static glTF 2.0 binary (GLB): one scene whose nodes, one per mesh instance and without
 * transforms (the vertices are already in model space), each carry a mesh of that instance's primitives. No skins,
 * animations, cameras or extensions.
 *
 * <p>Per primitive: {@code POSITION} (float VEC3, with the {@code min}/{@code max} the specification requires),
 * {@code NORMAL} (float VEC3, re-normalised; left out when the primitive has none or one of them has no direction),
 * {@code TEXCOORD_0} (float VEC2; left out when absent or not finite), the source's indices unchanged (unsigned
 * short when every index is below 65535, else unsigned int; a non-indexed primitive stays non-indexed), its mode, and
 * its material. Primitives without vertices or with an empty index list draw nothing and are left out, and so are
 * instances left with no primitive.
 *
 * <p>Layout: one buffer, the GLB BIN chunk. Every accessor has its own tightly packed buffer view (no
 * {@code byteStride}) starting on a 4-byte boundary, with {@code target} 34962 for vertex attributes and 34963 for
 * indices; per primitive the views follow in the order positions, normals, texture coordinates, indices. A material
 * that a primitive uses is written when first used (without its texture for primitives that have no
 * {@code TEXCOORD_0}); its base colour image goes into a buffer view of its own, the same image once however many
 * materials use it. The JSON chunk is padded with spaces and the BIN chunk with zeros to 4 bytes. {@code min} and
 * {@code max} are written as the exact decimal value of the float32 they bound, so they equal the data bit for bit.
 *
 * <p>The output is deterministic: the same input gives the same bytes. Stateless; thread-safe.
 */
public final class GlbWriter {

    /** {@code glTF}, little-endian. */
    public static final int MAGIC = 0x46546C67;
    /** The GLB container version. */
    public static final int VERSION = 2;
    /** Chunk type of the JSON chunk ({@code JSON}). */
    public static final int CHUNK_JSON = 0x4E4F534A;
    /** Chunk type of the BIN chunk ({@code BIN\0}). */
    public static final int CHUNK_BIN = 0x004E4942;
    /** {@code asset.generator}. */
    public static final String GENERATOR = "posekit";

    static final int ARRAY_BUFFER = 34962;
    static final int ELEMENT_ARRAY_BUFFER = 34963;
    static final int UNSIGNED_SHORT = 5123;
    static final int UNSIGNED_INT = 5125;
    static final int FLOAT = 5126;

    private GlbWriter() {
    }

    /**
     * One mesh instance, posed.
     *
     * @param name the node's and mesh's name, or {@code null}
     * @param primitives the source primitives (mode, indices, texture coordinates, material)
     * @param posed their posed vertices, same order and vertex counts; positions are required, normals optional
     */
    public record PosedMesh(String name, List<Primitive> primitives, List<PosedPrimitive> posed) {

        public PosedMesh {
            primitives = List.copyOf(primitives);
            posed = List.copyOf(posed);
            if (primitives.size() != posed.size()) {
                throw new IllegalArgumentException(primitives.size() + " primitives but " + posed.size() + " posed");
            }
        }
    }

    /**
     * Writes {@code meshes} as a GLB.
     *
     * @param extras written as {@code asset.extras} (string, number, boolean or {@code null} values, in the map's
     *     order), or {@code null} for none
     * @throws IllegalArgumentException when a posed primitive has no positions, a vertex count that differs from its
     *     source, or a position that is not finite; or the output would exceed the 4 GiB a GLB can hold
     */
    public static byte[] write(List<PosedMesh> meshes, Map<String, ?> extras) {
        Document doc = new Document();
        for (int m = 0; m < meshes.size(); m++) {
            doc.addMesh(meshes.get(m), m);
        }
        byte[] json = doc.json(extras).getBytes(StandardCharsets.UTF_8);
        int jsonLength = align4(json.length);
        long binLength = doc.binLength;
        long total = 12L + 8 + jsonLength + (binLength > 0 ? 8 + binLength : 0);
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("the GLB would take " + total + " bytes; at most "
                    + (Integer.MAX_VALUE - 16) + " can be written");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(VERSION).putInt((int) total);
        out.putInt(jsonLength).putInt(CHUNK_JSON).put(json);
        for (int i = json.length; i < jsonLength; i++) {
            out.put((byte) ' ');
        }
        if (binLength > 0) {
            out.putInt((int) binLength).putInt(CHUNK_BIN);
            ByteBuffer bin = out.slice().order(ByteOrder.LITTLE_ENDIAN);
            for (Block b : doc.blocks) {
                b.fill(bin.position(b.offset));
            }
        }
        return out.array();
    }

    static int align4(int n) {
        return (n + 3) & ~3;
    }

    /** Bytes of the BIN chunk to write at {@code offset}. */
    private abstract static class Block {
        int offset;
        int length;

        abstract void fill(ByteBuffer bin);
    }

    private static final class FloatBlock extends Block {
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

    private static final class IndexBlock extends Block {
        final int[] values;
        final boolean shorts;

        IndexBlock(int[] values, boolean shorts) {
            this.values = values;
            this.shorts = shorts;
            this.length = (shorts ? 2 : 4) * values.length;
        }

        @Override
        void fill(ByteBuffer bin) {
            if (shorts) {
                for (int v : values) {
                    bin.putShort((short) v);
                }
            } else {
                bin.asIntBuffer().put(values);
            }
        }
    }

    private static final class BytesBlock extends Block {
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

    /** The glTF JSON being built, and the BIN chunk's blocks. */
    private static final class Document {
        final List<Block> blocks = new ArrayList<>();
        long binLength;
        final List<String> bufferViews = new ArrayList<>();
        final List<String> accessors = new ArrayList<>();
        final List<String> nodes = new ArrayList<>();
        final List<String> meshes = new ArrayList<>();
        final List<String> materials = new ArrayList<>();
        final List<String> textures = new ArrayList<>();
        final List<String> images = new ArrayList<>();
        /** Material index by source material, per with/without texture coordinates. */
        final Map<Material, Integer> withUv = new IdentityHashMap<>();
        final Map<Material, Integer> withoutUv = new IdentityHashMap<>();
        final Map<Material.Texture, Integer> imageIndex = new IdentityHashMap<>();

        void addMesh(PosedMesh mesh, int meshIndex) {
            List<String> prims = new ArrayList<>();
            for (int p = 0; p < mesh.primitives().size(); p++) {
                String prim = primitive(mesh.primitives().get(p), mesh.posed().get(p), "mesh " + meshIndex + " primitive " + p);
                if (prim != null) {
                    prims.add(prim);
                }
            }
            if (prims.isEmpty()) {
                return;
            }
            String name = mesh.name() == null ? "" : "\"name\":" + Json.string(mesh.name()) + ",";
            nodes.add("{" + name + "\"mesh\":" + meshes.size() + "}");
            meshes.add("{" + name + "\"primitives\":[" + String.join(",", prims) + "]}");
        }

        private String primitive(Primitive source, PosedPrimitive posed, String where) {
            int n = source.vertexCount();
            if (posed.vertexCount() != n) {
                throw new IllegalArgumentException(where + ": posed " + posed.vertexCount() + " vertices, source " + n);
            }
            if (posed.positions() == null || posed.positions().length != 3 * n) {
                throw new IllegalArgumentException(where + ": the posed primitive has no positions");
            }
            int[] indices = source.indices();
            if (n == 0 || (indices != null && indices.length == 0)) {
                return null;
            }
            float[] positions = posed.positions();
            float[] min = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
            float[] max = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
            for (int i = 0; i < positions.length; i++) {
                float v = positions[i];
                if (!Float.isFinite(v)) {
                    throw new IllegalArgumentException(where + ": posed vertex " + i / 3 + " is not finite");
                }
                int c = i % 3;
                if (v < min[c]) {
                    min[c] = v;
                }
                if (v > max[c]) {
                    max[c] = v;
                }
            }
            StringBuilder attributes = new StringBuilder();
            attributes.append("\"POSITION\":").append(accessor(new FloatBlock(positions), ARRAY_BUFFER, FLOAT, "VEC3", n,
                    ",\"min\":" + Json.exactFloats(min) + ",\"max\":" + Json.exactFloats(max)));
            float[] normals = unitNormals(posed.normals());
            if (normals != null) {
                attributes.append(",\"NORMAL\":").append(accessor(new FloatBlock(normals), ARRAY_BUFFER, FLOAT, "VEC3", n, ""));
            }
            float[] uv = finite(source.texcoords());
            if (uv != null) {
                attributes.append(",\"TEXCOORD_0\":").append(accessor(new FloatBlock(uv), ARRAY_BUFFER, FLOAT, "VEC2", n, ""));
            }
            StringBuilder prim = new StringBuilder("{\"attributes\":{").append(attributes).append('}');
            if (indices != null) {
                int maxIndex = 0;
                for (int i : indices) {
                    maxIndex = Math.max(maxIndex, i);
                }
                boolean shorts = maxIndex < 0xFFFF;
                prim.append(",\"indices\":").append(accessor(new IndexBlock(indices, shorts), ELEMENT_ARRAY_BUFFER,
                        shorts ? UNSIGNED_SHORT : UNSIGNED_INT, "SCALAR", indices.length, ""));
            }
            if (source.material() != null) {
                prim.append(",\"material\":").append(material(source.material(), uv != null));
            }
            if (source.mode() != PrimitiveMode.TRIANGLES) {
                prim.append(",\"mode\":").append(source.mode().ordinal());
            }
            return prim.append('}').toString();
        }

        /** Unit normals, or {@code null} when there are none or one cannot be normalised. */
        private static float[] unitNormals(float[] normals) {
            if (normals == null) {
                return null;
            }
            float[] out = new float[normals.length];
            for (int i = 0; i < normals.length; i += 3) {
                double x = normals[i];
                double y = normals[i + 1];
                double z = normals[i + 2];
                double len = Math.sqrt(x * x + y * y + z * z);
                if (!(len > 1e-20) || !Double.isFinite(len)) {
                    return null;
                }
                out[i] = (float) (x / len);
                out[i + 1] = (float) (y / len);
                out[i + 2] = (float) (z / len);
            }
            return out;
        }

        private static float[] finite(float[] values) {
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

        /** Adds a block, its buffer view and an accessor over it; returns the accessor's index. */
        private int accessor(Block block, int target, int componentType, String type, int count, String more) {
            int view = view(block, target);
            accessors.add("{\"bufferView\":" + view + ",\"componentType\":" + componentType + ",\"count\":" + count
                    + ",\"type\":\"" + type + "\"" + more + "}");
            return accessors.size() - 1;
        }

        private int view(Block block, int target) {
            block.offset = (int) binLength;
            blocks.add(block);
            binLength += align4(block.length);
            bufferViews.add("{\"buffer\":0,\"byteOffset\":" + block.offset + ",\"byteLength\":" + block.length
                    + (target == 0 ? "" : ",\"target\":" + target) + "}");
            return bufferViews.size() - 1;
        }

        private int material(Material m, boolean hasUv) {
            Map<Material, Integer> known = hasUv ? withUv : withoutUv;
            Integer index = known.get(m);
            if (index != null) {
                return index;
            }
            StringBuilder pbr = new StringBuilder();
            float[] base = m.baseColorFactor();
            if (base[0] != 1 || base[1] != 1 || base[2] != 1 || base[3] != 1) {
                pbr.append("\"baseColorFactor\":").append(Json.floats(base));
            }
            if (m.metallicFactor() != 1) {
                pbr.append(pbr.isEmpty() ? "" : ",").append("\"metallicFactor\":").append(Json.number(m.metallicFactor()));
            }
            if (m.roughnessFactor() != 1) {
                pbr.append(pbr.isEmpty() ? "" : ",").append("\"roughnessFactor\":").append(Json.number(m.roughnessFactor()));
            }
            if (hasUv && m.baseColorTexture() != null) {
                pbr.append(pbr.isEmpty() ? "" : ",").append("\"baseColorTexture\":{\"index\":")
                        .append(texture(m.baseColorTexture())).append('}');
            }
            List<String> fields = new ArrayList<>();
            if (m.name() != null) {
                fields.add("\"name\":" + Json.string(m.name()));
            }
            fields.add("\"pbrMetallicRoughness\":{" + pbr + "}");
            float[] emissive = m.emissiveFactor();
            if (emissive[0] != 0 || emissive[1] != 0 || emissive[2] != 0) {
                fields.add("\"emissiveFactor\":" + Json.floats(emissive));
            }
            if (m.alphaMode() != Material.AlphaMode.OPAQUE) {
                fields.add("\"alphaMode\":\"" + m.alphaMode().name() + "\"");
            }
            if (m.alphaMode() == Material.AlphaMode.MASK && m.alphaCutoff() != 0.5f) {
                fields.add("\"alphaCutoff\":" + Json.number(m.alphaCutoff()));
            }
            if (m.doubleSided()) {
                fields.add("\"doubleSided\":true");
            }
            materials.add("{" + String.join(",", fields) + "}");
            known.put(m, materials.size() - 1);
            return materials.size() - 1;
        }

        private int texture(Material.Texture t) {
            Integer image = imageIndex.get(t);
            if (image == null) {
                int view = view(new BytesBlock(t.bytes()), 0);
                images.add("{\"bufferView\":" + view + ",\"mimeType\":" + Json.string(t.mimeType()) + "}");
                image = images.size() - 1;
                imageIndex.put(t, image);
                textures.add("{\"source\":" + image + "}");
            }
            return image; // one texture per image, same index
        }

        String json(Map<String, ?> extras) {
            StringBuilder s = new StringBuilder("{\"asset\":{\"version\":\"2.0\",\"generator\":\"" + GENERATOR + "\"");
            if (extras != null && !extras.isEmpty()) {
                s.append(",\"extras\":").append(Json.object(extras));
            }
            s.append('}');
            List<String> sceneNodes = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                sceneNodes.add(Integer.toString(i));
            }
            s.append(",\"scene\":0,\"scenes\":[{\"nodes\":[").append(String.join(",", sceneNodes)).append("]}]");
            array(s, "nodes", nodes);
            array(s, "meshes", meshes);
            array(s, "materials", materials);
            array(s, "textures", textures);
            array(s, "images", images);
            array(s, "accessors", accessors);
            array(s, "bufferViews", bufferViews);
            if (binLength > 0) {
                s.append(",\"buffers\":[{\"byteLength\":").append(binLength).append("}]");
            }
            return s.append('}').toString();
        }

        private static void array(StringBuilder s, String name, List<String> elements) {
            if (!elements.isEmpty()) {
                s.append(",\"").append(name).append("\":[").append(String.join(",", elements)).append(']');
            }
        }
    }

    /** Minimal JSON text for the document above. */
    static final class Json {

        private Json() {
        }

        static String string(String s) {
            StringBuilder b = new StringBuilder(s.length() + 2).append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20 || c == 0x7F || Character.isSurrogate(c) && !validSurrogate(s, i)) {
                            b.append(String.format("\\u%04x", (int) (Character.isSurrogate(c) ? 0xFFFD : c)));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }

        private static boolean validSurrogate(String s, int i) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            }
            return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
        }

        /** A float in its shortest decimal form (factors). */
        static String number(float f) {
            return f == 0 ? "0" : Float.toString(f).replace("E", "e");
        }

        static String floats(float[] v) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < v.length; i++) {
                b.append(i == 0 ? "" : ",").append(number(v[i]));
            }
            return b.append(']').toString();
        }

        /** Floats as the exact decimal of their float32 value, so a reader in double precision gets the same value. */
        static String exactFloats(float[] v) {
            StringBuilder b = new StringBuilder("[");
            for (int i = 0; i < v.length; i++) {
                double d = v[i];
                b.append(i == 0 ? "" : ",").append(d == 0 ? "0" : Double.toString(d).replace("E", "e"));
            }
            return b.append(']').toString();
        }

        static String object(Map<String, ?> map) {
            StringBuilder b = new StringBuilder("{");
            for (Map.Entry<String, ?> e : new LinkedHashMap<>(map).entrySet()) {
                b.append(b.length() == 1 ? "" : ",").append(string(Objects.requireNonNull(e.getKey()))).append(':');
                Object v = e.getValue();
                if (v == null) {
                    b.append("null");
                } else if (v instanceof Boolean bool) {
                    b.append(bool);
                } else if (v instanceof Integer || v instanceof Long) {
                    b.append(v);
                } else if (v instanceof Number num) {
                    double d = num.doubleValue();
                    b.append(!Double.isFinite(d) ? "null" : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d)
                            : Double.toString(d).replace("E", "e"));
                } else {
                    b.append(string(v.toString()));
                }
            }
            return b.append('}').toString();
        }
    }
}

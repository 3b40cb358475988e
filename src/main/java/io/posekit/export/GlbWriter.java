package io.posekit.export;

import io.posekit.skinning.PosedPrimitive;
import io.posekit.skinning.Primitive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes posed meshes as a static glTF 2.0 binary (GLB): one scene whose nodes, one per mesh instance and without
 * transforms (the vertices are already in model space), each carry a mesh of that instance's primitives. No skins,
 * animations, cameras or extensions.
 *
 * <p>Per primitive: {@code POSITION} (float VEC3, with the {@code min}/{@code max} the specification requires),
 * {@code NORMAL} (float VEC3, re-normalised; left out when the primitive has none or one of them has no direction),
 * {@code TEXCOORD_0}, {@code TEXCOORD_1}, … (float VEC2; every set up to the first absent or not finite), {@code COLOR_0} (float RGBA, when the source
 * has colours), the source's indices unchanged (unsigned
 * short when every index is below 65535, else unsigned int; a non-indexed primitive stays non-indexed), its mode, and
 * its material. Primitives without vertices or with an empty index list draw nothing and are left out, and so are
 * instances left with no primitive.
 *
 * <p>Layout (uncompressed; see {@link #write(List, Map, Compression)} for the others): one buffer, the GLB BIN
 * chunk. Every accessor has its own tightly packed buffer view (no {@code byteStride}) starting on a 4-byte boundary,
 * with {@code target} 34962 for vertex attributes and 34963 for
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
        return write(meshes, extras, Compression.NONE);
    }

    /**
     * Writes {@code meshes} as a GLB stored as {@code compression} says ({@link Compression}): when it quantizes, each
     * mesh's positions are quantized in the box around its posed vertices, and its node carries the dequantization
     * as its translation and uniform scale.
     *
     * @throws IllegalArgumentException as {@link #write(List, Map)}
     */
    public static byte[] write(List<PosedMesh> meshes, Map<String, ?> extras, Compression compression) {
        GltfWriter doc = new GltfWriter(compression);
        for (int m = 0; m < meshes.size(); m++) {
            addMesh(doc, meshes.get(m), m);
        }
        return doc.glb(extras);
    }

    private static void addMesh(GltfWriter doc, PosedMesh mesh, int meshIndex) {
        List<String> prims = new ArrayList<>();
        if (doc.compression.quantizes()) {
            List<float[]> positions = new ArrayList<>();
            for (PosedPrimitive p : mesh.posed()) {
                if (p.positions() != null) {
                    positions.add(p.positions());
                }
            }
            doc.positions = PositionQuantization.around(positions);
        }
        for (int p = 0; p < mesh.primitives().size(); p++) {
            Primitive source = mesh.primitives().get(p);
            PosedPrimitive posed = mesh.posed().get(p);
            String where = "mesh " + meshIndex + " primitive " + p;
            int n = source.vertexCount();
            if (posed.vertexCount() != n) {
                throw new IllegalArgumentException(where + ": posed " + posed.vertexCount() + " vertices, source " + n);
            }
            if (posed.positions() == null || posed.positions().length != 3 * n) {
                throw new IllegalArgumentException(where + ": the posed primitive has no positions");
            }
            String prim = doc.primitive(source, posed.positions(), posed.normals(), where + ": posed vertex", null);
            if (prim != null) {
                prims.add(prim);
            }
        }
        if (prims.isEmpty()) {
            return;
        }
        String name = mesh.name() == null ? "" : "\"name\":" + GltfJson.string(mesh.name()) + ",";
        doc.sceneNodes.add(doc.nodes.size());
        String dequantize = doc.positions == null ? "" : doc.positions.nodeFields() + ",";
        doc.nodes.add("{" + name + dequantize + "\"mesh\":" + doc.meshes.size() + "}");
        doc.meshes.add("{" + name + "\"primitives\":[" + String.join(",", prims) + "]}");
    }
}

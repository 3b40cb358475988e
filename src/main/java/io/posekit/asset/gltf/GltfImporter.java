package io.posekit.asset.gltf;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.skinning.Primitive;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Imports glTF 2.0 assets, binary ({@code .glb}) or JSON ({@code .gltf}), into an {@link ImportScene}.
 *
 * <p>What is read: the node hierarchy of the chosen scene (the {@code scene} property, else scene 0, else
 * every root node) with rest transforms; all skins (joints outside the scene pull in their hierarchy); a
 * mesh instance per imported node with a mesh, whose primitives carry mesh-space positions, normals,
 * tangents, indices, joint influences, {@code TEXCOORD_0}, material (factors, and the base colour image when the
 * upload holds it; see {@link MaterialDecoder}) and morph targets (position and normal displacements, with the node's
 * {@code weights}, else the mesh's, as defaults); and every animation as a clip of translation, rotation, scale
 * and morph-weight tracks (times in seconds). Other textures, cameras and lights are not decoded. Units and axes are
 * glTF's: metres, +Y up, right-handed.
 *
 * <p>Buffers come only from the GLB BIN chunk, base64 {@code data:} URIs, or files of the same upload; an
 * external or escaping URI is rejected, and the importer never touches the file system or network. Every
 * count, offset and length is checked against the data before anything is read, decoded arrays are charged
 * to the import's {@link DecodeBudget} before allocation, and every problem surfaces as an
 * {@link ImportException} naming the element at fault (e.g.
 * {@code accessor 7: count 4000 × stride 12 exceeds bufferView 3 length 1024}).
 *
 * <p>Stateless and thread-safe.
 */
public final class GltfImporter implements AssetImporter {

    private final boolean draco;

    /** An importer that decodes Draco-compressed meshes. */
    public GltfImporter() {
        this(true);
    }

    /**
     * @param draco whether Draco-compressed meshes are decoded; when not, a file with one is a 415 naming the
     *     setting that turned them off
     */
    public GltfImporter(boolean draco) {
        this.draco = draco;
    }

    @Override
    public AssetFormat format() {
        return AssetFormat.GLTF;
    }

    /**
     * Imports {@code main}, a GLB (recognised by its magic or a {@code .glb} name) or glTF JSON file.
     *
     * @throws ImportException (invalid, 422) for a malformed file, unsupported required extension or bad
     *     reference; (unsupported, 415) for a {@code minVersion} above 2.0; (too large, 413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        boolean glb = GlbContainer.hasMagic(main.read(0, Math.min(4, main.size())))
                || main.name().toLowerCase(Locale.ROOT).endsWith(".glb");
        GltfDocument doc;
        ByteBuffer bin = null;
        if (glb) {
            // mapped, not read: only the JSON chunk is copied to the heap, the BIN chunk is read where accessors point
            GlbContainer container = GlbContainer.parse(main.buffer());
            byte[] json = main.read(container.jsonOffset(), container.jsonLength());
            doc = GltfDocument.parse(json, 0, trimPadding(json, 0, json.length), "GLB JSON chunk", budget);
            bin = container.bin();
        } else {
            byte[] bytes = main.bytes();
            doc = GltfDocument.parse(bytes, 0, bytes.length, "glTF JSON", budget);
        }
        ImportWarnings warnings = new ImportWarnings();
        BufferResolver buffers = new BufferResolver(doc, main, upload, bin, glb, budget, warnings);
        AccessorReader accessors = new AccessorReader(doc, buffers, budget);
        SceneGraph graph = SceneGraph.build(doc, limits, warnings);
        SkinDecoder skins = new SkinDecoder(doc, graph, limits, warnings);
        List<ImportScene.Node> nodes = graph.importNodes(warnings);
        int[] importIndex = graph.importIndex();
        List<ImportScene.Skin> skinList = skins.decode(accessors, importIndex, warnings);
        MaterialDecoder materials = new MaterialDecoder(doc, buffers, main, upload, budget, warnings);
        List<ImportScene.MeshInstance> meshes = meshInstances(doc, graph, accessors, budget, skins.skinCount(), warnings,
                materials);
        List<ImportScene.Clip> clips = new AnimationDecoder(doc, accessors, warnings).decode(graph);
        // VRM avatars and animations: the humanoid bone map, for retargeting
        io.posekit.asset.HumanoidMap humanoid = VrmHumanoid.read(doc.root(), importIndex, warnings);
        return new ImportScene(nodes, skinList, meshes, clips, warnings.list(), humanoid);
    }

    /**
     * A GLB on disk is mapped, not read: only its JSON chunk is held whole; so are {@code .bin} buffers on disk. A
     * {@code .gltf}, images and any other file count whole (a referenced image is read into memory).
     */
    @Override
    public long heldBytes(SourceFile main, List<SourceFile> upload) {
        long held = 0;
        for (SourceFile f : upload) {
            boolean mappedBin = f != main && f.name().toLowerCase(Locale.ROOT).endsWith(".bin");
            if (f.isOnDisk() && f == main && f.size() >= 20 && GlbContainer.hasMagic(f.read(0, 4))) {
                // the first chunk's length: the JSON the parse copies to the heap (GlbContainer checks it later)
                held += Integer.toUnsignedLong(ByteBuffer.wrap(f.read(12, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt());
            } else if (!(f.isOnDisk() && mappedBin)) {
                held += f.size();
            }
        }
        return Math.min(held, upload.stream().mapToLong(SourceFile::size).sum());
    }

    /** One instance per imported node with a mesh, in file order; meshes are decoded once and shared. */
    private List<ImportScene.MeshInstance> meshInstances(GltfDocument doc, SceneGraph graph,
            AccessorReader accessors, DecodeBudget budget, int skinCount, ImportWarnings warnings,
            MaterialDecoder materials) {
        MeshDecoder meshes = new MeshDecoder(doc, accessors, budget, warnings, materials, draco);
        int[] importIndex = graph.importIndex();
        List<ImportScene.MeshInstance> out = new ArrayList<>();
        for (int i = 0; i < graph.nodeCount(); i++) {
            if (!graph.isIncluded(i)) {
                continue;
            }
            String where = "node " + i;
            JsonNode node = doc.element("nodes", i, "node");
            int skin = -1;
            if (Json.has(node, "skin")) {
                skin = Json.checkIndex(Json.reqInt(node, "skin", where), skinCount, "skin", where);
            }
            if (!Json.has(node, "mesh")) {
                if (skin >= 0) {
                    warnings.add(where + " has skin " + skin + " but no mesh; the skin is ignored on this node");
                }
                continue;
            }
            int mesh = Json.checkIndex(Json.reqInt(node, "mesh", where), meshes.meshCount(), "mesh", where);
            List<Primitive> primitives = meshes.primitives(mesh);
            String name = meshes.name(mesh);
            if (name == null) {
                name = Json.optString(node, "name", where);
            }
            // node.weights override mesh.weights (each one per morph target)
            float[] weights = Json.optFloats(node, "weights", primitives.getFirst().morphTargetCount(), where);
            if (weights == null) {
                weights = meshes.weights(mesh);
            }
            out.add(new ImportScene.MeshInstance(name, importIndex[i], skin, mesh, primitives, weights));
        }
        return out;
    }

    /** The length of a GLB JSON chunk without trailing padding (spaces, as the spec asks, or stray NULs). */
    private static int trimPadding(byte[] bytes, int offset, int length) {
        int end = offset + length;
        while (end > offset && (bytes[end - 1] == ' ' || bytes[end - 1] == 0 || bytes[end - 1] == '\n'
                || bytes[end - 1] == '\r' || bytes[end - 1] == '\t')) {
            end--;
        }
        return end - offset;
    }
}

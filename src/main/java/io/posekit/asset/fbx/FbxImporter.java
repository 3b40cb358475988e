package io.posekit.asset.fbx;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Imports Autodesk FBX 7.x files ({@code .fbx}, binary or ASCII) into an {@link ImportScene}.
 *
 * <p>The container is read by {@link FbxReader} into an {@link FbxNode} tree; this class interprets the tree:
 * <ul>
 *   <li>the object graph ({@link FbxScene}): {@code Objects} by int64 id, {@code Connections} ({@code OO}, {@code OP}),
 *       property templates of {@code Definitions};</li>
 *   <li>one node per {@code Model}, parented as connected, with the rest pose of the full FBX transform chain
 *       (pivots, offsets, pre/post-rotation, rotation order, inherit type; {@link FbxTransform},
 *       {@link FbxHierarchy});</li>
 *   <li>one mesh instance per {@code Mesh} geometry on a Model: polygons fan-triangulated, de-indexed into unique
 *       (control point, normal, UV) vertices, the Model's geometric transform applied ({@link FbxGeometry});</li>
 *   <li>skins from {@code Skin} deformers and their clusters: every influence, inverse binds from the clusters'
 *       {@code Transform} ({@link FbxSkin});</li>
 *   <li>one clip per {@code AnimationStack}, curves evaluated exactly through the transform chain
 *       ({@link FbxAnimation}, {@link FbxCurves}).</li>
 * </ul>
 * Model space is the file's own: {@code GlobalSettings} axes and {@code UnitScaleFactor} are reported (a warning line)
 * but not converted, as three.js's FBXLoader and the conformance data have it. Materials, textures, cameras, lights,
 * constraints and blend shapes are not applied.
 *
 * <p>Every count and index is checked against what it indexes, allocations are charged to the import's
 * {@link DecodeBudget} first, and every problem is an {@link ImportException} naming the object at fault (e.g.
 * {@code skin 'Armature' of Geometry 'Body' cluster 'Spine': Indexes[3] = 913 is out of range for the 800 control points
 * of Geometry 'Body'}). Stateless and thread-safe; never touches anything but the uploaded bytes.
 */
public final class FbxImporter implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.FBX;
    }

    /**
     * Imports {@code main}. Sibling files of the upload are not used (textures and other referenced files are not
     * read).
     *
     * @throws ImportException invalid (422) for a malformed container or scene, unsupported (415) for files older than
     *     FBX 7.0, too large (413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        FbxReader.Document doc = FbxReader.read(main.bytes(), limits, budget);
        return interpret(doc.root(), doc.version(), limits, budget);
    }

    /**
     * Interprets a parsed document (the root holding the top-level records).
     *
     * @param version the file's FBX version, e.g. 7400
     */
    static ImportScene interpret(FbxNode root, int version, ImportLimits limits, DecodeBudget budget) {
        ImportWarnings warnings = new ImportWarnings();
        FbxScene scene = FbxScene.of(root, version, budget, warnings);
        warnings.add(scene.globalSettingsSummary());
        FbxHierarchy nodes = FbxHierarchy.build(scene, limits, budget, warnings);
        Map<Long, double[]> bindPoses = FbxSkin.bindPoses(scene, warnings);
        List<ImportScene.Skin> skins = new ArrayList<>();
        List<ImportScene.MeshInstance> meshes = new ArrayList<>();
        Map<Long, FbxGeometry.Mesh> decoded = new HashMap<>();
        Map<Long, Primitive> rigid = new HashMap<>();
        for (int i = 0; i < nodes.nodes().size(); i++) {
            budget.checkTime();
            FbxScene.FbxObject model = nodes.model(i);
            for (FbxScene.FbxObject geometry : scene.sources(model.id(), "Geometry", null)) {
                if (!geometry.subclass().equals("Mesh")) {
                    warnings.add(model.label() + ": " + geometry.label() + " of type '"
                            + FbxScene.display(geometry.subclass()) + "' is not a polygon mesh; ignored");
                    continue;
                }
                if (!scene.sources(geometry.id(), "Deformer", "BlendShape").isEmpty()) {
                    warnings.add(geometry.label() + " has blend shapes (morph targets); they are not applied");
                }
                double[] geometric = FbxTransform.geometric(nodes.data(i));
                FbxGeometry.Mesh mesh;
                if (geometric == null) {
                    if (!decoded.containsKey(geometry.id())) {
                        decoded.put(geometry.id(), FbxGeometry.read(geometry, null, budget, warnings));
                    }
                    mesh = decoded.get(geometry.id());
                } else {
                    FbxTransform.requireFinite(geometric, model.label() + ": its geometric transform");
                    mesh = FbxGeometry.read(geometry, geometric, budget, warnings);
                    warnings.add(model.label() + ": its geometric transform (GeometricTranslation/Rotation/Scaling) is"
                            + " applied to the vertices of " + geometry.label());
                }
                if (mesh == null) {
                    continue;
                }
                FbxSkin.Skinned skinned = FbxSkin.read(scene, nodes, geometry, i, mesh, bindPoses, budget, warnings);
                if (skinned != null) {
                    skins.add(skinned.skin());
                    meshes.add(new ImportScene.MeshInstance(model.name(), i, skins.size() - 1, geometry.order(),
                            List.of(skinned.primitive())));
                    continue;
                }
                Primitive primitive = geometric == null ? rigid.get(geometry.id()) : null;
                if (primitive == null) {
                    primitive = new Primitive(PrimitiveMode.TRIANGLES, mesh.attributes(), mesh.positions(),
                            mesh.normals(), null, mesh.indices(), 0, new int[0], new float[0], mesh.texcoords(), null)
                            .withFurtherTexcoords(mesh.furtherTexcoords()).withColors(mesh.colors());
                    if (geometric == null) {
                        rigid.put(geometry.id(), primitive);
                    }
                }
                meshes.add(new ImportScene.MeshInstance(model.name(), i, -1, geometry.order(), List.of(primitive)));
            }
        }
        List<ImportScene.Clip> clips = FbxAnimation.clips(scene, nodes, budget, warnings);
        return new ImportScene(nodes.nodes(), skins, meshes, clips, warnings.list());
    }
}

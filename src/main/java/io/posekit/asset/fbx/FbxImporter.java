package io.posekit.asset.fbx;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.MaterialGroups;
import io.posekit.asset.ModelSpace;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.skinning.Material;
import io.posekit.skinning.Primitive;
import io.posekit.skinning.PrimitiveMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Imports Autodesk FBX 6.x and 7.x files ({@code .fbx}, binary or ASCII) into an {@link ImportScene}; a 6.x
 * document is first rewritten into the 7.x object model ({@link FbxLegacy}).
 *
 * <p>The container is read by {@link FbxReader} into an {@link FbxNode} tree; this class interprets the tree:
 * <ul>
 *   <li>the object graph ({@link FbxScene}): {@code Objects} by int64 id, {@code Connections} ({@code OO}, {@code OP}),
 *       property templates of {@code Definitions};</li>
 *   <li>one node per {@code Model}, parented as connected, with the rest pose of the full FBX transform chain
 *       (pivots, offsets, pre/post-rotation, rotation order, inherit type; {@link FbxTransform},
 *       {@link FbxHierarchy});</li>
 *   <li>one mesh instance per {@code Mesh} geometry on a Model: polygons fan-triangulated, de-indexed into unique
 *       (control point, normal, UV) vertices, the Model's geometric transform applied ({@link FbxGeometry}); one per
 *       {@code NurbsSurface}, tessellated with the file's span subdivision as ufbx tessellates it
 *       ({@link FbxNurbs});</li>
 *   <li>skins from {@code Skin} deformers and their clusters: every influence, inverse binds from the clusters'
 *       {@code Transform} ({@link FbxSkin});</li>
 *   <li>materials: the Model's {@code Material}s with their diffuse texture (embedded {@code Video/Content} or a file
 *       of the upload), one primitive per material of the polygons' {@code LayerElementMaterial}
 *       ({@link FbxMaterials});</li>
 *   <li>blend shapes: {@code BlendShape}/{@code BlendShapeChannel}/{@code Shape} as morph targets with in-between
 *       shapes and {@code DeformPercent} default weights ({@link FbxBlendShapes});</li>
 *   <li>one clip per {@code AnimationStack}, curves evaluated exactly through the transform chain
 *       ({@link FbxAnimation}, {@link FbxCurves}), {@code DeformPercent} curves as weights tracks
 *       ({@link FbxMorphTracks}).</li>
 * </ul>
 * Model space is the file's own, as three.js's FBXLoader and the conformance data have it: {@code GlobalSettings} axes
 * and {@code UnitScaleFactor} are reported (a warning line) and carried as the scene's {@link ModelSpace}, which the
 * glTF exports apply. Cameras, lights and constraints are not applied.
 *
 * <p>Every count and index is checked against what it indexes, allocations are charged to the import's
 * {@link DecodeBudget} first, and every problem is an {@link ImportException} naming the object at fault (e.g.
 * {@code skin 'Armature' of Geometry 'Body' cluster 'Spine': Indexes[3] = 913 is out of range for the 800 control points
 * of Geometry 'Body'}). Stateless and thread-safe; never touches anything but the uploaded bytes.
 */
public final class FbxImporter implements AssetImporter {

    private final boolean smoothMeshes;

    /** An importer that subdivides the meshes a file displays smooth ({@link FbxSmoothMesh}), as the tool shows them. */
    public FbxImporter() {
        this(true);
    }

    /**
     * An importer.
     *
     * @param smoothMeshes whether meshes the file displays smooth are Catmull-Clark subdivided ({@code true}, the
     *     default) or kept as their cage ({@code false})
     */
    public FbxImporter(boolean smoothMeshes) {
        this.smoothMeshes = smoothMeshes;
    }

    @Override
    public AssetFormat format() {
        return AssetFormat.FBX;
    }

    /**
     * Imports {@code main}. Of the upload's other files only the images its textures name are read.
     *
     * @throws ImportException invalid (422) for a malformed container or scene, unsupported (415) for files older than
     *     FBX 6.0, too large (413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        FbxReader.Document doc = FbxReader.read(main.bytes(), limits, budget);
        return interpret(doc.root(), doc.version(), main, upload, limits, budget, smoothMeshes);
    }

    /**
     * Interprets a parsed document (the root holding the top-level records) without the upload's other files.
     *
     * @param version the file's FBX version, e.g. 7400
     */
    static ImportScene interpret(FbxNode root, int version, ImportLimits limits, DecodeBudget budget) {
        return interpret(root, version, null, null, limits, budget);
    }

    /**
     * Interprets a parsed document.
     *
     * @param main the FBX file (texture file names resolve from it), or {@code null}
     * @param upload the upload's files textures may name, or {@code null}
     */
    static ImportScene interpret(FbxNode root, int version, SourceFile main, SourceFiles upload, ImportLimits limits,
            DecodeBudget budget) {
        return interpret(root, version, main, upload, limits, budget, true);
    }

    /**
     * Interprets a parsed document.
     *
     * @param smoothMeshes whether meshes the file displays smooth are subdivided
     */
    static ImportScene interpret(FbxNode root, int version, SourceFile main, SourceFiles upload, ImportLimits limits,
            DecodeBudget budget, boolean smoothMeshes) {
        ImportWarnings warnings = new ImportWarnings();
        if (version < FbxLegacy.AS_VERSION) {
            root = FbxLegacy.upgrade(root, version, budget, warnings);
            version = FbxLegacy.AS_VERSION;
        }
        FbxScene scene = FbxScene.of(root, version, budget, warnings);
        warnings.add(scene.globalSettingsSummary());
        ModelSpace space = scene.modelSpace(warnings);
        FbxHierarchy nodes = FbxHierarchy.build(scene, limits, budget, warnings);
        Map<Long, double[]> bindPoses = FbxSkin.bindPoses(scene, warnings);
        FbxMaterials materials = new FbxMaterials(scene, main, upload, budget, warnings);
        List<ImportScene.Skin> skins = new ArrayList<>();
        List<ImportScene.MeshInstance> meshes = new ArrayList<>();
        List<FbxBlendShapes.Placement> morphs = new ArrayList<>();
        Map<Long, FbxGeometry.Mesh> decoded = new HashMap<>();
        Map<Long, Primitive> rigid = new HashMap<>();
        Map<Long, FbxBlendShapes.Shapes> shapesOf = new HashMap<>();
        for (int i = 0; i < nodes.nodes().size(); i++) {
            budget.checkTime();
            FbxScene.FbxObject model = nodes.model(i);
            for (FbxScene.FbxObject geometry : scene.sources(model.id(), "Geometry", null)) {
                double[] geometric = FbxTransform.geometric(nodes.data(i));
                if (geometry.subclass().equals("NurbsSurface")) {
                    FbxGeometry.Mesh surface = nurbsSurface(scene, model, geometry, geometric, budget, warnings);
                    if (surface != null) {
                        meshes.add(new ImportScene.MeshInstance(model.name(), i, -1, geometry.order(),
                                surfaces(rigid(surface), surface, model, materials.forModel(model, surface), budget,
                                        warnings), null));
                    }
                    continue;
                }
                if (!geometry.subclass().equals("Mesh")) {
                    warnings.add(model.label() + ": " + geometry.label() + " of type '"
                            + FbxScene.display(geometry.subclass()) + "' is not a polygon mesh; ignored");
                    continue;
                }
                boolean deformed = !scene.sources(geometry.id(), "Deformer", null).isEmpty();
                FbxGeometry.Mesh mesh;
                FbxBlendShapes.Shapes shapes;
                if (geometric == null) {
                    if (!decoded.containsKey(geometry.id())) {
                        FbxGeometry.Mesh m = FbxGeometry.read(geometry, null, smoothMeshes, deformed, budget, warnings);
                        decoded.put(geometry.id(), m);
                        shapesOf.put(geometry.id(), m == null ? null
                                : FbxBlendShapes.read(scene, geometry, m, null, budget, warnings));
                    }
                    mesh = decoded.get(geometry.id());
                    shapes = shapesOf.get(geometry.id());
                } else {
                    FbxTransform.requireFinite(geometric, model.label() + ": its geometric transform");
                    mesh = FbxGeometry.read(geometry, geometric, smoothMeshes, deformed, budget, warnings);
                    shapes = mesh == null ? null : FbxBlendShapes.read(scene, geometry, mesh, geometric, budget, warnings);
                    warnings.add(model.label() + ": its geometric transform (GeometricTranslation/Rotation/Scaling) is"
                            + " applied to the vertices of " + geometry.label());
                }
                if (mesh == null) {
                    continue;
                }
                FbxSkin.Skinned skinned = FbxSkin.read(scene, nodes, geometry, i, mesh, bindPoses, budget, warnings);
                Primitive primitive;
                int skin = -1;
                if (skinned != null) {
                    skins.add(skinned.skin());
                    skin = skins.size() - 1;
                    primitive = skinned.primitive();
                } else {
                    primitive = geometric == null ? rigid.get(geometry.id()) : null;
                    if (primitive == null) {
                        primitive = rigid(mesh);
                        if (geometric == null) {
                            rigid.put(geometry.id(), primitive);
                        }
                    }
                }
                float[] defaultWeights = null;
                if (shapes != null) {
                    primitive = primitive.withMorphTargets(shapes.targets());
                    defaultWeights = shapes.defaultWeights();
                    morphs.add(new FbxBlendShapes.Placement(i, shapes));
                }
                meshes.add(new ImportScene.MeshInstance(model.name(), i, skin, geometry.order(),
                        surfaces(primitive, mesh, model, materials.forModel(model, mesh), budget, warnings),
                        defaultWeights));
            }
        }
        List<ImportScene.Clip> clips = FbxAnimation.clips(scene, nodes, morphs, budget, warnings);
        return new ImportScene(nodes.nodes(), skins, meshes, clips, warnings.list(), null, space);
    }

    /** The primitive of a mesh no skin deforms. */
    private static Primitive rigid(FbxGeometry.Mesh mesh) {
        return new Primitive(PrimitiveMode.TRIANGLES, mesh.attributes(), mesh.positions(), mesh.normals(), null,
                mesh.indices(), 0, new int[0], new float[0], mesh.texcoords(), null)
                .withFurtherTexcoords(mesh.furtherTexcoords()).withColors(mesh.colors());
    }

    /**
     * A NURBS surface tessellated as ufbx tessellates it ({@link FbxNurbs}), rigid: deformers on it (their indices
     * name control points, not the tessellation's vertices) are not applied, warned.
     */
    private static FbxGeometry.Mesh nurbsSurface(FbxScene scene, FbxScene.FbxObject model,
            FbxScene.FbxObject geometry, double[] geometric, DecodeBudget budget, ImportWarnings warnings) {
        if (geometric != null) {
            FbxTransform.requireFinite(geometric, model.label() + ": its geometric transform");
        }
        FbxGeometry.Mesh surface = FbxNurbs.tessellate(geometry, geometric, budget, warnings);
        if (surface != null && !scene.sources(geometry.id(), "Deformer", null).isEmpty()) {
            warnings.add(model.label() + ": the deformers of NURBS " + geometry.label() + " are not applied (the"
                    + " surface is tessellated at rest)");
        }
        return surface;
    }

    /**
     * The primitive split into one per material of the Model ({@link MaterialGroups}): polygons pick theirs by the
     * geometry's material layer, or all use the first when it has none; a polygon whose index names no material of
     * the Model gets none (warned).
     */
    private static List<Primitive> surfaces(Primitive primitive, FbxGeometry.Mesh mesh, FbxScene.FbxObject model,
            Material[] materials, DecodeBudget budget, ImportWarnings warnings) {
        if (materials.length == 0) {
            return List.of(primitive);
        }
        int triangles = mesh.indices().length / 3;
        int[] perTriangle = mesh.triangleMaterials() == null ? new int[triangles] : mesh.triangleMaterials().clone();
        int missing = 0;
        for (int t = 0; t < triangles; t++) {
            if (perTriangle[t] >= materials.length) {
                perTriangle[t] = -1;
                missing++;
            }
        }
        if (missing > 0) {
            warnings.add(model.label() + ": " + missing + " triangle(s) name a material index beyond its "
                    + materials.length + " material(s); they get none");
        }
        return MaterialGroups.split(primitive, perTriangle, materials, budget);
    }
}

package io.posekit.asset.collada;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.util.List;

/**
 * Imports COLLADA 1.4/1.5 documents ({@code .dae}) into an {@link ImportScene}.
 *
 * <p>What is read:
 * <ul>
 *   <li>the node hierarchy of the chosen visual scene under a synthetic root node that converts the document's
 *       {@code <up_axis>} and {@code <unit>} to glTF's Y-up metres (see {@link SceneBuilder}); rest transforms are
 *       the products of each node's transform elements, decomposed;</li>
 *   <li>meshes of {@code <instance_geometry>} and {@code <instance_controller>}: triangles, polylists, polygons,
 *       fans and strips de-indexed into unique vertices with mesh-space positions exactly as stored, normals and
 *       tangents (see {@link GeometryDecoder}); instances of one geometry or controller share their primitives;</li>
 *   <li>skins: all influences of every control vertex, inverse binds with the bind shape folded in, joints resolved
 *       per instance through its {@code <skeleton>}s (see {@link ControllerDecoder});</li>
 *   <li>morph controllers (instanced directly or as a skin's source): targets as displacements of the base
 *       geometry, {@code NORMALIZED} or {@code RELATIVE}, with their {@code MORPH_WEIGHT}s as default weights
 *       (see {@link ControllerDecoder}); animated morph weights are not read;</li>
 *   <li>animations as clips, one per {@code <animation_clip>} or one {@code default} clip: animated matrices
 *       become decomposed TRS keys, other transform elements exact curve stacks (see {@link AnimationDecoder}).</li>
 * </ul>
 * Materials, textures, cameras, lights, physics and kinematics are not read.
 *
 * <p>The XML is parsed with StAX without DTDs or entities and under depth and element limits
 * ({@link XmlTreeReader}); only same-document {@code #id} references are followed, so the importer never touches
 * the file system or network. Arrays are charged to the import's {@link DecodeBudget} before allocation, every
 * index is checked against what it indexes, and every problem surfaces as an {@link ImportException} naming the
 * element at fault (e.g. {@code geometry 'Cube-mesh' polylist 0: NORMAL index 913 is out of range for source
 * 'Cube-normals' with 24 elements}).
 *
 * <p>Stateless and thread-safe.
 */
public final class ColladaImporter implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.COLLADA;
    }

    /**
     * Imports {@code main}. Of the upload's other files only the images its materials name are read.
     *
     * @throws ImportException (invalid, 422) for malformed XML, DTDs or entities, or a document that is not valid
     *     COLLADA; (too large, 413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        ImportWarnings warnings = new ImportWarnings();
        XmlTreeReader.Document xml = new XmlTreeReader(budget).parse(main.bytes());
        ColladaDocument doc = ColladaDocument.of(xml, warnings);
        Sources sources = new Sources(doc, budget, warnings);
        ColladaMaterials materials = new ColladaMaterials(doc, main, upload, budget, warnings);
        GeometryDecoder geometries = new GeometryDecoder(doc, sources, materials, budget, warnings);
        ControllerDecoder controllers = new ControllerDecoder(doc, sources, geometries, budget, warnings);
        SceneBuilder scene = new SceneBuilder(doc, budget, geometries, controllers, warnings);
        scene.build();
        SamplerDecoder samplers = new SamplerDecoder(doc, sources, budget, warnings);
        List<ImportScene.Clip> clips = new AnimationDecoder(doc, scene, controllers, samplers, budget, warnings).decode();
        return new ImportScene(scene.nodes(), scene.skins(), scene.meshes(), clips, warnings.list());
    }
}

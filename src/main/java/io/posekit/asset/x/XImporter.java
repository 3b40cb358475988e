package io.posekit.asset.x;

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
 * Imports DirectX {@code .x} files (versions 03.02 and 03.03) into an {@link ImportScene}.
 *
 * <p>Containers: text ({@code txt }) and binary ({@code bin }) with 32- or 64-bit floats, each also MSZIP-compressed
 * ({@code tzip}, {@code bzip}; see {@link Mszip}). The header is checked first ({@link XHeader}); the data is then
 * read as one token stream ({@link TextTokens}, {@link BinaryTokens}) by the {@link XParser}, which skips templates
 * and every data object it does not use.
 *
 * <p>What is read:
 * <ul>
 *   <li>the {@code Frame} hierarchy, one node per frame, rest transforms from {@code FrameTransformMatrix};</li>
 *   <li>{@code Mesh}es with faces of any size (fanned), {@code MeshNormals} with their own face indices (vertices
 *       split per distinct position/normal pair), {@code MeshTextureCoords} (every set, as
 *       {@code TEXCOORD_0}, {@code TEXCOORD_1}, … in file order, top-left origin as in glTF), {@code MeshVertexColors}
 *       ({@code COLOR_0});</li>
 *   <li>skins from {@code SkinWeights}: joints resolved to frames by name, inverse binds = the offset matrices,
 *       every influence of every vertex;</li>
 *   <li>{@code AnimationSet}s as clips, {@code AnimationKey} types 0 (rotation), 1 (scale), 2 (position) and 3/4
 *       (matrix, decomposed), key ticks divided by {@code AnimTicksPerSecond} (25 when absent: frames, as Irrlicht plays them), LINEAR.</li>
 * </ul>
 * Everything is converted from DirectX's left-handed space to right-handed space by mirroring Z as assimp does
 * ({@link Handedness}), so model space is the space of the conformance data (assimp's scene space). Materials and
 * their {@code TextureFilename} images (files of the upload) are read ({@link XMaterials}); {@code AnimationOptions}
 * is not.
 *
 * <p>Every count is checked against the data before allocation and charged to the import's {@link DecodeBudget},
 * every index against what it indexes; every problem is an {@link ImportException} naming the object and where it
 * is (e.g. {@code Mesh 'body': face 12 refers to vertex 913 of 800 (line 1630)}). Stateless and thread-safe; never
 * touches anything but the uploaded bytes.
 */
public final class XImporter implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.X;
    }

    /**
     * Imports {@code main}. Of the upload's other files only the images its materials name are read.
     *
     * @throws ImportException (invalid, 422) for a malformed header or data, (unsupported, 415) for UTF-16 text or a
     *     version other than 03.xx, (too large, 413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        byte[] bytes = main.bytes();
        String name = main.baseName();
        XHeader header = XHeader.parse(bytes, name);
        ImportWarnings warnings = new ImportWarnings();
        XTokens tokens;
        if (header.compressed()) {
            byte[] data = Mszip.inflate(bytes, header.dataStart(), name, limits, budget);
            tokens = header.binary() ? new BinaryTokens(data, 0, data.length, header.floatBits(), true)
                    : new TextTokens(data, 0, data.length, true);
        } else {
            tokens = header.binary() ? new BinaryTokens(bytes, header.dataStart(), bytes.length, header.floatBits(), false)
                    : new TextTokens(bytes, header.dataStart(), bytes.length, false);
        }
        XDocument doc = new XParser(tokens, limits, budget, warnings).parse();
        SceneAssembler scene = new SceneAssembler(doc, new XMaterials(doc, main, upload, budget, warnings), budget, warnings);
        scene.build();
        scene.requireContent(name);
        List<ImportScene.Clip> clips = new ClipAssembler(doc, scene, budget, warnings).clips();
        return new ImportScene(scene.nodes(), scene.skins(), scene.meshes(), clips, warnings.list());
    }
}

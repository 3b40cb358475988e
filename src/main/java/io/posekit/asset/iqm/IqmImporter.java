package io.posekit.asset.iqm;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.NamedMaterials;
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
 * Imports Inter-Quake Model files ({@code .iqm}, version 2 of the IQM SDK's {@code iqm.txt}) into an
 * {@link ImportScene}.
 *
 * <p>What is read:
 * <ul>
 *   <li>a synthetic root node named after the file (base name without extension, identity transform), parent of
 *       the joints' roots and carrier of the meshes; then one node per joint in table order with its name and
 *       rest transform (see {@link IqmSkeleton});</li>
 *   <li>one skin over all joints, inverse binds from the base frame;</li>
 *   <li>one mesh instance per IQM mesh with one triangle primitive of the mesh's vertices in file order:
 *       positions, normals, tangents and all blend indexes/weights (see {@link IqmMeshDecoder});</li>
 *   <li>one clip per anim, LINEAR per-frame keys at {@code f / framerate} (see {@link IqmAnimationDecoder}).</li>
 * </ul>
 * Texture coordinates ({@code TEXCOORD_0}), colours ({@code COLOR_0}) and the meshes' materials (the uploaded image
 * each material names, {@link io.posekit.asset.NamedMaterials}) are read; custom arrays, adjacency, bounds, comments
 * and extensions are not decoded (their positions are still checked).
 *
 * <p>Coordinate space: the file's own, untouched. IQM files are Z-up (Blender's and Quake's convention), so
 * posekit's model space for an IQM asset is Z-up; no axis or unit conversion is applied (assimp would add a −90°
 * rotation about X on its root).
 *
 * <p>Safety: the header's {@code filesize} must equal the file's length and every section the header announces
 * must lie within it (64-bit arithmetic, {@link IqmFile}) before anything is read; strings must be NUL-terminated
 * inside the text block; every index is checked; arrays are charged to the import's {@link DecodeBudget} before
 * allocation; every problem is an {@link ImportException} naming the header field, joint, pose, mesh, triangle,
 * vertex array or anim at fault.
 *
 * <p>Stateless and thread-safe.
 */
public final class IqmImporter implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.IQM;
    }

    /**
     * Imports {@code main}. Of the upload's other files only the images its materials name are read.
     *
     * @throws ImportException invalid (422) for a file that is not valid IQM (bad magic, size mismatch, sections
     *     or references out of bounds, non-finite data); unsupported (415) for an IQM version other than 2 or an
     *     animation-only file; too large (413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        ImportWarnings warnings = new ImportWarnings();
        IqmFile file = IqmFile.parse(main.bytes());
        IqmSkeleton skeleton = IqmSkeleton.read(file, rootName(main), limits, budget, warnings);
        List<ImportScene.MeshInstance> meshes = new IqmMeshDecoder(file, skeleton,
                new NamedMaterials(main, upload, budget, warnings), budget, warnings).decode();
        List<ImportScene.Clip> clips = new IqmAnimationDecoder(file, skeleton, budget, warnings).decode();
        return new ImportScene(skeleton.nodes(), skeleton.skins(), meshes, clips, warnings.list());
    }

    /** The file's base name without its extension, or {@code null} when that is empty. */
    static String rootName(SourceFile file) {
        String base = file.baseName();
        int dot = base.lastIndexOf('.');
        String name = dot >= 0 ? base.substring(0, dot) : base;
        return name.isEmpty() ? null : name;
    }
}

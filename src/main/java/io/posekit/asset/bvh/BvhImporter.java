package io.posekit.asset.bvh;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.util.ArrayList;
import java.util.List;

/**
 * Imports Biovision Hierarchy motion files ({@code .bvh}) into an {@link ImportScene}: a rig without meshes or
 * skins, and one clip named {@code animation}.
 *
 * <ul>
 *   <li><b>Nodes</b>: every ROOT (one or several), JOINT and End Site, in depth-first file order
 *       ({@code sourceIndex} is that order), each ROOT a root node. Rest pose: translation = OFFSET, identity
 *       rotation, unit scale. Lengths stay in the file's units (no conversion). An End Site, which the file does not name, is named {@code <parent name>_end} (unique;
 *       three.js calls them all {@code ENDSITE}).</li>
 *   <li><b>Clip</b> {@code animation}: frame f is a key at {@code f · Frame Time}; LINEAR translation keys
 *       {@code OFFSET + position channels} for joints with position channels, LINEAR rotation keys composed from
 *       the rotation channels in their listed order for joints with rotation channels (see {@link MotionDecoder}).
 *       Joints without channels keep their rest pose. The clip lasts {@code (Frames − 1) · Frame Time}.</li>
 * </ul>
 *
 * <p>CHANNELS may list any number of channels (also none, or more than six, repeated axes compose in order);
 * unknown channel names, frame lines with the wrong number of values, values that are not decimal numbers,
 * unbalanced braces and frame counts beyond the data are rejected with a {@code 422} naming the line. Every
 * allocation sized by the file is either bounded by the file's own length or charged to the
 * {@link io.posekit.asset.DecodeBudget} first, and the node count is capped by {@link ImportLimits#maxNodes()} while
 * parsing. Sibling files of the upload are not used.
 *
 * <p>Stateless and thread-safe.
 */
public final class BvhImporter implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.BVH;
    }

    /**
     * Imports {@code main}.
     *
     * @throws io.posekit.asset.ImportException (invalid, 422) for a file that is not valid BVH, naming the line; (too large, 413)
     *     past {@link ImportLimits#maxNodes()} or the decode budget
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        DecodeBudget budget = limits.newBudget();
        ImportWarnings warnings = new ImportWarnings();
        BvhText text = BvhText.of(main.bytes());
        HierarchyParser.Hierarchy hierarchy = new HierarchyParser(text, limits.maxNodes(), budget, warnings).parse();
        ImportScene.Clip clip = new MotionDecoder(text, hierarchy, budget, warnings).decode();
        List<ImportScene.Node> nodes = new ArrayList<>(hierarchy.joints().size());
        for (int i = 0; i < hierarchy.joints().size(); i++) {
            Joint j = hierarchy.joints().get(i);
            float[] translation = {(float) j.offset[0], (float) j.offset[1], (float) j.offset[2]};
            nodes.add(new ImportScene.Node(j.name, j.parent, i, translation, null, null));
        }
        return new ImportScene(nodes, List.of(), List.of(), List.of(clip), warnings.list());
    }
}

package io.posekit.asset.md5;

import io.posekit.asset.ImportWarnings;
import io.posekit.asset.NamedMaterials;
import io.posekit.asset.AssetFormat;
import io.posekit.asset.AssetImporter;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Imports Doom 3 MD5 models (MD5Version 10): an {@code .md5mesh} with every {@code .md5anim} of the same upload
 * (extra parts of a multipart upload or files of the same zip), or an {@code .md5anim} on its own.
 *
 * <p>What is read (see {@link Md5SceneBuilder} and {@link Md5ClipBuilder}):
 * <ul>
 *   <li>a synthetic root node named after the model file that rotates MD5's Z-up space to Y-up (−90° about X,
 *       as assimp does), then one node per joint, named as in the file, with its bind pose relative to its
 *       parent;</li>
 *   <li>one skin over all joints, inverse binds from the joints' model-space bind matrices;</li>
 *   <li>one mesh instance per {@code mesh} block (named after its shader): bind-pose positions computed from the
 *       weights, every weight as an influence;</li>
 *   <li>one clip per {@code .md5anim}, named after the file (base name without extension; a repeated name gets
 *       {@code _2}, {@code _3}, …), in upload order, driving joints by name.</li>
 * </ul>
 * An {@code .md5anim} uploaded alone gives a rig of its hierarchy at the baseframe with its clip, without meshes.
 * Texture coordinates are {@code TEXCOORD_0}; each shader is a material whose image is the uploaded image of the
 * shader's base name ({@link io.posekit.asset.NamedMaterials}); bounds are checked but not used.
 *
 * <p>Coordinate space: posekit's model space for MD5 is assimp's scene space for MD5, {@code Rx(−90°)} applied to
 * the file's Z-up space (the conformance data's space). Bind-shape positions (mesh space) are the file's.
 *
 * <p>The text is tokenised strictly ({@link Md5Lexer}); every count is checked against the text left before
 * anything is allocated and charged to the import's {@link DecodeBudget}; every reference is checked; every
 * problem is an {@link io.posekit.asset.ImportException} naming the file, line and element at fault.
 *
 * <p>Stateless and thread-safe.
 */
public final class Md5Importer implements AssetImporter {

    @Override
    public AssetFormat format() {
        return AssetFormat.MD5;
    }

    /**
     * Imports {@code main} (an {@code .md5mesh}, or an {@code .md5anim} uploaded without a mesh) and, for a mesh,
     * every {@code .md5anim} of {@code upload} and the images its shaders name.
     *
     * @throws io.posekit.asset.ImportException invalid (422) for malformed text, counts the text cannot hold or bad
     *     references; unsupported (415) for an MD5Version other than 10; too large (413) past a limit
     */
    @Override
    public ImportScene read(SourceFile main, SourceFiles upload, ImportLimits limits) {
        ImportWarnings warnings = new ImportWarnings();
        DecodeBudget budget = limits.newBudget();
        String rootName = baseNameWithoutExtension(main);
        List<ImportScene.Clip> clips = new ArrayList<>();
        Md5SceneBuilder scene;
        if (isAnim(main)) {
            Md5AnimFile anim = Md5AnimFile.parse(main, limits, budget);
            scene = Md5SceneBuilder.ofAnim(anim, rootName, budget, warnings);
            clips.add(Md5ClipBuilder.clip(anim, rootName, scene, budget, warnings));
        } else {
            Md5MeshFile mesh = Md5MeshFile.parse(main, limits, budget);
            scene = Md5SceneBuilder.ofMesh(mesh, main.baseName(), rootName,
                    new NamedMaterials(main, upload, budget, warnings), budget, warnings);
            Set<String> names = new HashSet<>();
            for (SourceFile file : upload.files()) {
                if (!isAnim(file)) {
                    continue;
                }
                Md5AnimFile anim = Md5AnimFile.parse(file, limits, budget);
                String base = baseNameWithoutExtension(file);
                String name = base == null ? "animation" : base;
                for (int n = 2; !names.add(name); n++) {
                    name = (base == null ? "animation" : base) + "_" + n;
                }
                if (base != null && !name.equals(base)) {
                    warnings.add(file.name() + ": another animation is already called '" + base + "'; this one is '"
                            + name + "'");
                }
                clips.add(Md5ClipBuilder.clip(anim, name, scene, budget, warnings));
            }
        }
        return new ImportScene(scene.nodes(), scene.skins(), scene.meshes(), clips, warnings.list());
    }

    private static boolean isAnim(SourceFile file) {
        return file.name().toLowerCase(Locale.ROOT).endsWith(".md5anim");
    }

    /** The base name without its extension, or {@code null} when that is empty. */
    static String baseNameWithoutExtension(SourceFile file) {
        String base = file.baseName();
        int dot = base.lastIndexOf('.');
        String name = dot >= 0 ? base.substring(0, dot) : base;
        return name.isEmpty() ? null : name;
    }
}

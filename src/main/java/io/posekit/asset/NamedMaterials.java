package io.posekit.asset;

import io.posekit.skinning.Material;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Materials that formats give only as a name which is, by convention, an image: IQM mesh materials (usually a file
 * name, {@code body.tga}) and MD5 {@code shader}s (a path without extension, {@code models/monsters/imp/imp}). The
 * image is the uploaded file the name is the path of (from the model file's folder, else by base name), else the
 * uploaded image whose base name without extension is the name's ({@link TextureImages#byStem}). The material is
 * white (the image's colours as they are), metallic 0, roughness 1 — neither format states more. A name no uploaded
 * image matches gives the material without texture, with a warning when the name is a file name (has an image
 * extension); a bare material name (an MD5 shader usually is one) need not name an image. One instance per import; not thread-safe.
 */
public final class NamedMaterials {

    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final Map<String, Material> byName = new HashMap<>();

    /**
     * @param main the model file
     * @param upload the upload's files
     */
    public NamedMaterials(SourceFile main, SourceFiles upload, DecodeBudget budget, ImportWarnings warnings) {
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
    }

    /**
     * The material called {@code name}, or {@code null} when the name is {@code null} or blank.
     *
     * @param what how the format calls the name, e.g. {@code shader} (for the warning)
     */
    public Material forName(String name, String what) {
        if (name == null || name.isBlank()) {
            return null;
        }
        return byName.computeIfAbsent(name, n -> read(n, what));
    }

    private Material read(String name, String what) {
        String where = what + " '" + (name.length() > 60 ? name.substring(0, 60) + "…" : name) + "'";
        Optional<SourceFile> file = TextureImages.find(main, upload, name);
        Material.Texture texture = file.isPresent() ? TextureImages.texture(file.get(), where, budget, warnings)
                : TextureImages.byStem(upload, name, where, budget, warnings);
        if (texture == null && file.isEmpty() && TextureImages.hasImageSuffix(name)) {
            warnings.add(where + " names an image that is not among the uploaded files; the surface is white");
        }
        return new Material(name, new float[] {1, 1, 1, 1}, 0, 1, new float[3], Material.AlphaMode.OPAQUE, 0.5f, false,
                texture, 0);
    }
}

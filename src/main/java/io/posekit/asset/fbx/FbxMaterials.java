package io.posekit.asset.fbx;

import io.posekit.asset.ColourSpace;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImages;
import io.posekit.skinning.Material;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The materials of FBX Models, as ufbx models them ({@code ufbx_material_map}: each property a value, perhaps a
 * connected texture, and a factor) and as the tool that wrote the file shows them.
 *
 * <ul>
 *   <li><b>Which</b>: the {@code Material} objects connected to a Model, in connection order; a polygon's
 *       {@code LayerElementMaterial} index picks one of them ({@link FbxGeometry}).</li>
 *   <li><b>Colours</b> (linear in the {@link Material}), in the space the exporter writes ({@link FbxExporter#colours()}:
 *       linear from Blender, sRGB from the FBX SDK and any other): base colour {@code DiffuseColor} × {@code DiffuseFactor}
 *       (default 1; white × the factor without a colour); emissive {@code EmissiveColor} × {@code EmissiveFactor}.
 *       A material that sets the SDK's precomputed product ({@code Diffuse}, {@code Emissive}) but not the colour
 *       itself gets the product as it is. Each colour channel is clamped to 0..1 before the factor, the product
 *       after it. FBX's Phong and Lambert models are not physically based: metallic 0,
 *       roughness 1.</li>
 *   <li><b>A connected texture replaces the value</b> of the property it is connected to, as in the FBX SDK, Maya and
 *       Blender's own importer: with a usable texture on {@code DiffuseColor} the base colour is the texture ×
 *       {@code DiffuseFactor}, whatever {@code DiffuseColor} says (Blender writes its Base Color socket's unused value
 *       there, 0.8 by default; three.js's FBXLoader multiplies the texture by it, drawing at 0.8×). A texture that
 *       cannot be used leaves the value.</li>
 *   <li><b>Transparency</b>: opacity {@code 1 − TransparencyFactor}; when that is 0 or 1, {@code Opacity} (default 1).
 *       Below 1 the material blends ({@code BLEND}) with that alpha.</li>
 *   <li><b>Texture</b>: the {@code Texture} connected to the material's {@code DiffuseColor} (or Maya's
 *       {@code Maya|TEX_color_map}; a {@code LayeredTexture}'s first layer), its image from the {@code Video} connected
 *       to it — the embedded {@code Content} (binary bytes, or base64 text in ASCII files), else the file its
 *       {@code RelativeFilename} or {@code FileName} names among the upload's files (by path, then by base name; never
 *       the file system). Any image {@link TextureImages} reads (sRGB, as every exporter writes colour images). The
 *       texture's {@code UVSet} names the UV layer it is sampled with ({@code TEXCOORD_0} when it names none the mesh
 *       has).</li>
 * </ul>
 * A material or image that cannot be used is a warning, never a failure: the primitive keeps the colour. Texture
 * transforms ({@code Translation}, {@code Scaling}, {@code Rotation}), clamped wrapping and maps other than the diffuse
 * colour are not carried (warned).
 */
final class FbxMaterials {

    /** The material properties texture maps connect to that give the base colour. */
    private static final List<String> BASE_COLOR_SLOTS = List.of("DiffuseColor", "Maya|TEX_color_map");

    private final FbxScene scene;
    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final ColourSpace colours;
    private final Map<Long, Material> materials = new HashMap<>();
    private final Map<Long, Optional<Material.Texture>> images = new HashMap<>();

    /**
     * @param main the FBX file, or {@code null} (then no file the textures name is looked up)
     * @param upload the upload's files, or {@code null}
     */
    FbxMaterials(FbxScene scene, SourceFile main, SourceFiles upload, DecodeBudget budget, ImportWarnings warnings) {
        this.scene = scene;
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
        this.colours = scene.exporter().colours();
    }

    /**
     * The materials of {@code model}, in connection order, with their textures sampled with the UV set of
     * {@code mesh} each names; empty when the model has none.
     */
    Material[] forModel(FbxScene.FbxObject model, FbxGeometry.Mesh mesh) {
        List<FbxScene.FbxObject> connected = scene.sources(model.id(), "Material", null);
        Material[] out = new Material[connected.size()];
        for (int i = 0; i < out.length; i++) {
            FbxScene.FbxObject m = connected.get(i);
            Material base = materials.computeIfAbsent(m.id(), id -> read(m));
            int set = uvSet(m, mesh);
            out[i] = set == 0 || base.baseColorTexture() == null ? base : new Material(base.name(),
                    base.baseColorFactor(), base.metallicFactor(), base.roughnessFactor(), base.emissiveFactor(),
                    base.alphaMode(), base.alphaCutoff(), base.doubleSided(), base.baseColorTexture(), set);
        }
        return out;
    }

    private Material read(FbxScene.FbxObject m) {
        Material.Texture texture = null;
        try {
            texture = texture(m);
        } catch (ImportException e) {
            budget.checkTimeNow();
            if (e.kind() != ImportException.Kind.INVALID) {
                throw e;
            }
            warnings.add(e.getMessage() + "; the material's texture is not used");
        }
        FbxProperties p = scene.properties(m);
        float[] base = {1, 1, 1, 1};
        float[] emissive = new float[3];
        Material.AlphaMode alphaMode = Material.AlphaMode.OPAQUE;
        try {
            // the texture replaces DiffuseColor's value, DiffuseFactor scales it; without either colour the
            // factor scales white
            float[] diffuse = texture != null ? null : colour(p, "DiffuseColor", "DiffuseFactor", "Diffuse");
            float white = Math.min(factor(p, "DiffuseFactor"), 1f);
            System.arraycopy(diffuse != null ? diffuse : new float[] {white, white, white}, 0, base, 0, 3);
            float[] emission = colour(p, "EmissiveColor", "EmissiveFactor", "Emissive");
            if (emission != null) {
                emissive = emission;
            }
            double opacity = 1 - p.number("TransparencyFactor", 0);
            if (opacity == 1 || opacity == 0) {
                opacity = p.number("Opacity", 1);
            }
            if (opacity < 1) {
                base[3] = (float) Math.clamp(opacity, 0, 1);
                alphaMode = Material.AlphaMode.BLEND;
            }
        } catch (ImportException e) {
            budget.checkTimeNow();
            if (e.kind() != ImportException.Kind.INVALID) {
                throw e;
            }
            warnings.add(e.getMessage() + "; the material's colours are not used");
        }
        return new Material(m.name(), base, 0, 1, emissive, alphaMode, 0.5f, false, texture, 0);
    }

    /**
     * The linear RGB of a colour property times its factor, each channel clamped to 0..1 before and after: the
     * material's own {@code colour} × {@code factor}; else its own {@code product}, the SDK's precomputed product of
     * the two (Maya writes {@code Diffuse} 0.4 beside {@code DiffuseColor} 0.5 and {@code DiffuseFactor} 0.8, so it is
     * not multiplied again), as it is; else the template's {@code colour} × {@code factor}. Read in the exporter's
     * colour space; {@code null} when neither property is anywhere.
     */
    private float[] colour(FbxProperties p, String colour, String factor, String product) {
        if (!p.setsOwn(colour) && p.setsOwn(product)) {
            return colours.toLinear(p.vector(product, new double[3]));
        }
        if (p.find(colour) == null) {
            return null;
        }
        float f = factor(p, factor);
        float[] c = colours.toLinear(p.vector(colour, new double[3]));
        for (int i = 0; i < 3; i++) {
            c[i] = Math.clamp(c[i] * f, 0f, 1f);
        }
        return c;
    }

    /** The factor {@code name} (default 1; a negative or non-finite one is 0). */
    private static float factor(FbxProperties p, String name) {
        double f = p.number(name, 1);
        return Double.isFinite(f) && f > 0 ? (float) f : 0f;
    }

    /** The base colour texture of material {@code m}, or {@code null}. */
    private Material.Texture texture(FbxScene.FbxObject m) {
        List<String> other = new ArrayList<>();
        Material.Texture found = null;
        for (FbxScene.Connection c : scene.childrenOf(m.id())) {
            FbxScene.FbxObject t = scene.object(c.child());
            if (!c.toProperty() || t == null || !t.type().endsWith("Texture")) {
                continue;
            }
            if (!BASE_COLOR_SLOTS.contains(c.property())) {
                other.add(FbxScene.display(c.property()));
                continue;
            }
            if (found == null) {
                found = textureImage(firstLayer(t), m);
            }
        }
        if (!other.isEmpty()) {
            warnings.add(m.label() + ": textures on " + String.join(", ", other) + " are not carried (only the base"
                    + " colour's)");
        }
        return found;
    }

    /** A {@code LayeredTexture}'s first layer; any other texture itself. */
    private FbxScene.FbxObject firstLayer(FbxScene.FbxObject t) {
        if (!t.type().equals("LayeredTexture")) {
            return t;
        }
        List<FbxScene.FbxObject> layers = scene.sources(t.id(), "Texture", null);
        if (layers.size() > 1) {
            warnings.add(t.label() + " has " + layers.size() + " layers; only the first is used");
        }
        return layers.isEmpty() ? t : layers.getFirst();
    }

    private Material.Texture textureImage(FbxScene.FbxObject texture, FbxScene.FbxObject material) {
        if (!texture.type().equals("Texture")) {
            warnings.add(material.label() + ": " + texture.label() + " has no image; the material's colour is used");
            return null;
        }
        FbxProperties p = scene.properties(texture);
        double[] translation = p.vector("Translation", new double[3]);
        double[] scaling = p.vector("Scaling", new double[] {1, 1, 1});
        double[] rotation = p.vector("Rotation", new double[3]);
        if (translation[0] != 0 || translation[1] != 0 || scaling[0] != 1 || scaling[1] != 1 || rotation[2] != 0) {
            warnings.add(texture.label() + ": its UV translation, scaling or rotation is not carried");
        }
        if (p.integer("WrapModeU", 0) != 0 || p.integer("WrapModeV", 0) != 0) {
            warnings.add(texture.label() + ": clamped wrapping is not carried (the texture repeats)");
        }
        List<FbxScene.FbxObject> videos = scene.sources(texture.id(), "Video", null);
        Long key = videos.isEmpty() ? texture.id() : videos.getFirst().id();
        Optional<Material.Texture> image = images.get(key);
        if (image == null) {
            image = Optional.ofNullable(videos.isEmpty() ? fromFile(texture, null) : video(videos.getFirst(), texture));
            images.put(key, image);
        }
        return image.orElse(null);
    }

    private Material.Texture video(FbxScene.FbxObject video, FbxScene.FbxObject texture) {
        FbxNode content = video.child("Content");
        String name = fileName(video, texture);
        if (content != null) {
            byte[] bytes = contentBytes(content, video.label());
            if (bytes != null && bytes.length > 0) {
                return TextureImages.texture(bytes, name, video.label() + (name == null ? "" : " ('"
                        + FbxScene.display(name) + "')"), budget, warnings);
            }
        }
        return fromFile(video, texture);
    }

    /**
     * The embedded bytes: a raw property (binary files) or base64 strings (ASCII files); {@code null} when none. The
     * SDK splits long ASCII content into several strings; some exporters pad each string on its own (assimp's test
     * models), so when every string is a whole number of base64 quads each is decoded by itself and the bytes
     * concatenated (as assimp and ufbx do), otherwise the strings are joined and decoded as one.
     */
    private byte[] contentBytes(FbxNode content, String where) {
        if (content.properties().isEmpty()) {
            return null;
        }
        if (content.properties().getFirst() instanceof byte[] raw) {
            return raw;
        }
        List<String> pieces = new ArrayList<>();
        long length = 0;
        boolean quads = true;
        for (Object part : content.properties()) {
            if (part instanceof String s) {
                String piece = s.replaceAll("\\s+", "");
                pieces.add(piece);
                length += piece.length();
                quads &= piece.length() % 4 == 0;
            }
        }
        budget.charge(length / 4 * 3 + 3, 1, where + " Content");
        try {
            if (!quads) {
                return Base64.getMimeDecoder().decode(String.join("", pieces).getBytes(StandardCharsets.ISO_8859_1));
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) Math.min(length / 4 * 3,
                    Integer.MAX_VALUE - 8));
            for (String piece : pieces) {
                out.writeBytes(Base64.getMimeDecoder().decode(piece.getBytes(StandardCharsets.ISO_8859_1)));
            }
            return out.toByteArray();
        } catch (IllegalArgumentException e) {
            warnings.add(where + ": its Content is not base64 (" + e.getMessage() + "); the material's colour is used");
            return null;
        }
    }

    /** The image file {@code owner} (a Video or Texture) names, found among the upload's files; {@code null} if not. */
    private Material.Texture fromFile(FbxScene.FbxObject owner, FbxScene.FbxObject texture) {
        String name = fileName(owner, texture);
        if (name == null) {
            warnings.add(owner.label() + " neither embeds an image nor names a file; the material's colour is used");
            return null;
        }
        for (String candidate : candidates(owner, texture)) {
            Optional<SourceFile> file = TextureImages.find(main, upload, candidate);
            if (file.isPresent()) {
                return TextureImages.texture(file.get(), owner.label(), budget, warnings);
            }
        }
        warnings.add(owner.label() + ": its image '" + FbxScene.display(name) + "' is not among the uploaded files;"
                + " the material's colour is used");
        return null;
    }

    /** The first file name of the owner or its texture ({@code RelativeFilename} first), or {@code null}. */
    private static String fileName(FbxScene.FbxObject owner, FbxScene.FbxObject texture) {
        List<String> names = candidates(owner, texture);
        return names.isEmpty() ? null : names.getFirst();
    }

    private static List<String> candidates(FbxScene.FbxObject owner, FbxScene.FbxObject texture) {
        List<String> out = new ArrayList<>();
        for (FbxScene.FbxObject o : texture == null || texture == owner ? List.of(owner) : List.of(owner, texture)) {
            for (String field : List.of("RelativeFilename", "FileName", "Filename")) {
                FbxNode n = o.child(field);
                if (n != null && !n.properties().isEmpty() && n.property(0) instanceof String s && !s.isBlank()
                        && !out.contains(s)) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The UV set of {@code mesh} the base colour texture of {@code material} names (0 when unnamed or unknown). */
    private int uvSet(FbxScene.FbxObject material, FbxGeometry.Mesh mesh) {
        for (FbxScene.Connection c : scene.childrenOf(material.id())) {
            FbxScene.FbxObject t = scene.object(c.child());
            if (c.toProperty() && t != null && BASE_COLOR_SLOTS.contains(c.property())) {
                String name = scene.properties(firstLayer(t)).string("UVSet", "");
                int set = name.isEmpty() ? -1 : mesh.uvSet(name);
                return Math.max(set, 0);
            }
        }
        return 0;
    }
}

package io.posekit.asset.collada;

import io.posekit.asset.ColourSpace;
import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.asset.TextureImages;
import io.posekit.skinning.Material;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The material a COLLADA primitive element names with its {@code material} symbol, as a format-neutral
 * {@link Material}, read as three.js's ColladaLoader reads the {@code profile_COMMON} technique (constant, lambert,
 * phong, blinn), but for the colour space of the tool that wrote the file:
 * <ul>
 *   <li><b>Colours</b> (linear in the material), in the space the exporter writes ({@link #colourSpace}: linear from
 *       Blender, whose {@code <authoring_tool>} starts "Blender"; sRGB from any other, as three.js reads every file):
 *       {@code <diffuse><color>} the base colour,
 *       {@code <emission><color>} the emissive colour (components clamped to 0..1); metallic 0 and roughness 1 (the
 *       common profile is not physically based).</li>
 *   <li><b>Texture</b>: {@code <diffuse><texture texture="…" texcoord="…">}: the texture names a {@code sampler2D}
 *       {@code <newparam>} of the effect, whose {@code <source>} names a {@code surface} {@code <newparam>}, whose
 *       {@code <init_from>} is an {@code <image>} (COLLADA 1.4.1; a 1.5 sampler's {@code <instance_image>} too; a
 *       texture naming an image directly is accepted, as three.js does). The image is its {@code <init_from>} file
 *       among the upload's files (by path from the {@code .dae}, then by base name; never the file system) or its
 *       embedded {@code <data>}/{@code <hex>} bytes, converted by {@link TextureImages}. The texture's {@code texcoord}
 *       is bound to a {@code TEXCOORD} set by the {@code <bind_vertex_input semantic="…" input_set="…">} of the
 *       {@code <instance_material>}; the primitive samples that set ({@code TEXCOORD_0} when unbound).</li>
 *   <li><b>Transparency</b>: {@code <transparent opaque="…">} with {@code <transparency>} as three.js combines them
 *       ({@code A_ONE}: alpha × transparency, {@code RGB_ZERO}: 1 − red × transparency, {@code A_ZERO},
 *       {@code RGB_ONE}); an opacity below 1, or a transparent texture, blends ({@code BLEND}).</li>
 *   <li><b>Double-sided</b>: {@code <double_sided>1</double_sided>} in an {@code <extra><technique>} of the
 *       technique.</li>
 * </ul>
 *
 * <p>The symbol is bound to a material by the first {@code <instance_material symbol="…" target="#…">} with that
 * symbol anywhere in the file (instances of the same geometry that bind it to different materials share the first
 * binding), or else taken as a material id. A symbol that resolves to no usable material gives no material and one
 * warning; materials and images never fail an import.
 */
final class ColladaMaterials {

    private final ColladaDocument doc;
    private final SourceFile main;
    private final SourceFiles upload;
    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final ColourSpace colours;
    private Map<String, XmlElement> instances;
    private final Map<String, Optional<Material>> bySymbol = new HashMap<>();
    private final Map<XmlElement, Optional<Material.Texture>> images = new IdentityHashMap<>();

    /**
     * @param main the {@code .dae} (image files resolve from it), or {@code null}
     * @param upload the upload's files, or {@code null}
     */
    ColladaMaterials(ColladaDocument doc, SourceFile main, SourceFiles upload, DecodeBudget budget,
            ImportWarnings warnings) {
        this.doc = doc;
        this.main = main;
        this.upload = upload;
        this.budget = budget;
        this.warnings = warnings;
        this.colours = colourSpace(doc.root());
    }

    /**
     * The space the material colours of the document whose root is {@code collada} are in: {@link ColourSpace#LINEAR}
     * when an {@code <asset><contributor><authoring_tool>} starts with "Blender" (Blender's COLLADA exporter writes a
     * Principled BSDF's Base Color 0.8, 0.1, 0.1 as {@code <color>0.8 0.1 0.1 1</color>}, the linear value its glTF
     * exporter writes as {@code baseColorFactor}), else {@link ColourSpace#SRGB}.
     */
    static ColourSpace colourSpace(XmlElement collada) {
        XmlElement asset = collada == null ? null : collada.child("asset");
        for (XmlElement contributor : asset == null ? List.<XmlElement>of() : asset.children("contributor")) {
            XmlElement tool = contributor.child("authoring_tool");
            if (tool != null && tool.text() != null && tool.text().strip().startsWith("Blender")) {
                return ColourSpace.LINEAR;
            }
        }
        return ColourSpace.SRGB;
    }

    /**
     * The material bound to {@code symbol}, or {@code null} when {@code symbol} is {@code null} or unusable.
     *
     * @param texcoordSets the {@code set}s of the primitive's {@code TEXCOORD} inputs, ascending (its
     *     {@code TEXCOORD_0}, {@code TEXCOORD_1}, …)
     */
    Material forSymbol(String symbol, List<Integer> texcoordSets, String where) {
        if (symbol == null || symbol.isEmpty()) {
            return null;
        }
        Optional<Material> m = bySymbol.get(symbol);
        if (m == null) {
            m = Optional.ofNullable(resolve(symbol, where));
            bySymbol.put(symbol, m);
        }
        Material material = m.orElse(null);
        if (material == null || material.baseColorTexture() == null) {
            return material;
        }
        int set = Math.max(0, texcoordSets.indexOf(inputSet(symbol, texcoordName(symbol))));
        return set == 0 ? material : new Material(material.name(), material.baseColorFactor(), material.metallicFactor(),
                material.roughnessFactor(), material.emissiveFactor(), material.alphaMode(), material.alphaCutoff(),
                material.doubleSided(), material.baseColorTexture(), set);
    }

    private Material resolve(String symbol, String where) {
        XmlElement instance = instances().get(symbol);
        XmlElement material = instance != null ? doc.resolve(instance.attr("target")) : doc.byId(symbol);
        if (material == null || !material.name().equals("material")) {
            warnings.add(where + ": material " + Text.quote(symbol) + " is bound to no <material>; no material is used");
            return null;
        }
        String name = material.attr("name") != null ? material.attr("name") : material.attr("id");
        float[] base = {1, 1, 1, 1};
        float[] emissive = new float[3];
        Material.AlphaMode alphaMode = Material.AlphaMode.OPAQUE;
        boolean doubleSided = false;
        Material.Texture texture = null;
        XmlElement effect = effect(material);
        XmlElement technique = effect == null || effect.child("profile_COMMON") == null ? null
                : effect.child("profile_COMMON").child("technique");
        XmlElement shading = technique == null ? null : shading(technique);
        if (shading != null) {
            try {
                float[] diffuse = color(shading.child("diffuse"), where);
                if (diffuse != null) {
                    // the colour's alpha is not opacity (three.js ignores it too): <transparent> says that
                    base = linear(diffuse);
                    base[3] = 1;
                }
                float[] emission = color(shading.child("emission"), where);
                if (emission != null) {
                    float[] e = linear(emission);
                    emissive = new float[] {e[0], e[1], e[2]};
                }
                float opacity = opacity(shading, where);
                boolean texturedTransparency = shading.child("transparent") != null
                        && shading.child("transparent").child("texture") != null;
                if (opacity < 1 || texturedTransparency) {
                    base[3] = Math.clamp(opacity, 0f, 1f);
                    alphaMode = Material.AlphaMode.BLEND;
                }
            } catch (ImportException e) {
                budget.checkTimeNow();
                if (e.kind() != ImportException.Kind.INVALID) {
                    throw e;
                }
                warnings.add(where + ": material " + Text.quote(symbol) + ": " + e.getMessage()
                        + "; its colours are not used");
            }
            XmlElement tex = shading.child("diffuse") == null ? null : shading.child("diffuse").child("texture");
            if (tex != null) {
                texture = texture(effect, tex.attr("texture"), "material " + Text.quote(name));
            }
            doubleSided = doubleSided(technique);
        }
        return new Material(name, base, 0, 1, emissive, alphaMode, 0.5f, doubleSided, texture, 0);
    }

    private XmlElement effect(XmlElement material) {
        return material.child("instance_effect") == null ? null : doc.resolve(material.child("instance_effect").attr("url"));
    }

    /** The first shading model element of a technique, or {@code null}. */
    private static XmlElement shading(XmlElement technique) {
        for (XmlElement e : technique.children()) {
            if (e.name().equals("phong") || e.name().equals("blinn") || e.name().equals("lambert")
                    || e.name().equals("constant")) {
                return e;
            }
        }
        return null;
    }

    /** {@code rgba} with its colour channels in linear light, read in the exporter's space. */
    private float[] linear(float[] rgba) {
        return new float[] {colours.toLinear(rgba[0]), colours.toLinear(rgba[1]), colours.toLinear(rgba[2]), rgba[3]};
    }

    /** three.js's opacity of {@code <transparent>} and {@code <transparency>} (1 when neither is there). */
    private static float opacity(XmlElement shading, String where) {
        XmlElement transparent = shading.child("transparent");
        XmlElement transparency = shading.child("transparency");
        if (transparent == null && transparency == null) {
            return 1;
        }
        float amount = 1;
        if (transparency != null && transparency.child("float") != null) {
            amount = number(transparency.child("float").text(), where);
        }
        if (transparent != null && transparent.child("texture") != null) {
            return 1;
        }
        float[] color = transparent == null ? new float[] {1, 1, 1, 1} : color(transparent, where);
        if (color == null) {
            return 1;
        }
        String opaque = transparent == null || transparent.attr("opaque") == null ? "A_ONE" : transparent.attr("opaque");
        return switch (opaque) {
            case "RGB_ZERO" -> 1 - color[0] * amount;
            case "A_ZERO" -> 1 - color[3] * amount;
            case "RGB_ONE" -> color[0] * amount;
            default -> color[3] * amount;
        };
    }

    private static boolean doubleSided(XmlElement technique) {
        for (XmlElement extra : technique.children("extra")) {
            for (XmlElement t : extra.children("technique")) {
                XmlElement d = t.child("double_sided");
                if (d != null && d.text() != null && d.text().trim().equals("1")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The {@code texcoord} the diffuse texture of the material bound to {@code symbol} names, or {@code null}. */
    private String texcoordName(String symbol) {
        XmlElement instance = instances().get(symbol);
        XmlElement material = instance != null ? doc.resolve(instance.attr("target")) : doc.byId(symbol);
        XmlElement effect = material == null ? null : effect(material);
        XmlElement technique = effect == null || effect.child("profile_COMMON") == null ? null
                : effect.child("profile_COMMON").child("technique");
        XmlElement shading = technique == null ? null : shading(technique);
        XmlElement diffuse = shading == null ? null : shading.child("diffuse");
        XmlElement tex = diffuse == null ? null : diffuse.child("texture");
        return tex == null ? null : tex.attr("texcoord");
    }

    /** The {@code input_set} the instance material binds {@code semantic} to, or −1. */
    private int inputSet(String symbol, String semantic) {
        XmlElement instance = instances().get(symbol);
        if (instance == null || semantic == null) {
            return -1;
        }
        for (XmlElement bind : instance.children("bind_vertex_input")) {
            if (semantic.equals(bind.attr("semantic")) && (bind.attr("input_semantic") == null
                    || "TEXCOORD".equals(bind.attr("input_semantic")))) {
                String set = bind.attr("input_set");
                try {
                    return set == null ? 0 : Integer.parseInt(set.trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The image of a diffuse {@code <texture texture="sid">}, or {@code null} (warned). */
    private Material.Texture texture(XmlElement effect, String sid, String where) {
        XmlElement image = image(effect, sid);
        if (image == null) {
            warnings.add(where + ": its diffuse texture " + Text.quote(sid) + " names no <image>; the colour is used");
            return null;
        }
        Optional<Material.Texture> t = images.get(image);
        if (t == null) {
            t = Optional.ofNullable(load(image));
            images.put(image, t);
        }
        return t.orElse(null);
    }

    /** sampler2D → surface → image (1.4.1), sampler2D → instance_image (1.5), or an image id. */
    private XmlElement image(XmlElement effect, String sid) {
        if (sid == null) {
            return null;
        }
        XmlElement sampler = newparam(effect, sid, "sampler2D");
        if (sampler != null) {
            XmlElement instanceImage = sampler.child("instance_image");
            if (instanceImage != null) {
                return imageElement(doc.resolve(instanceImage.attr("url")));
            }
            XmlElement source = sampler.child("source");
            XmlElement surface = source == null ? null : newparam(effect, source.text().trim(), "surface");
            XmlElement init = surface == null ? null : surface.child("init_from");
            return init == null || init.text() == null ? null : imageElement(doc.byId(init.text().trim()));
        }
        return imageElement(doc.byId(sid));
    }

    private static XmlElement imageElement(XmlElement e) {
        return e != null && e.name().equals("image") ? e : null;
    }

    /** The {@code <newparam sid>}'s child {@code kind} in the effect's profile_COMMON or the effect, or {@code null}. */
    private static XmlElement newparam(XmlElement effect, String sid, String kind) {
        XmlElement profile = effect.child("profile_COMMON");
        for (XmlElement scope : profile == null ? List.of(effect) : List.of(profile, effect)) {
            for (XmlElement param : scope.children("newparam")) {
                if (sid.equals(param.attr("sid")) && param.child(kind) != null) {
                    return param.child(kind);
                }
            }
        }
        return null;
    }

    /** The bytes of an {@code <image>}: embedded hex, or the file its {@code init_from} names in the upload. */
    private Material.Texture load(XmlElement image) {
        String where = "image " + Text.quote(image.attr("id") != null ? image.attr("id") : String.valueOf(image.attr("name")));
        XmlElement init = image.child("init_from");
        XmlElement hex = image.child("data") != null ? image.child("data")
                : init != null && init.child("hex") != null ? init.child("hex") : null;
        if (hex != null) {
            byte[] bytes = hex(hex.text(), where);
            return bytes == null ? null : TextureImages.texture(bytes, hex.attr("format") == null ? null
                    : "embedded." + hex.attr("format"), where, budget, warnings);
        }
        String path = init == null ? null : init.child("ref") != null ? init.child("ref").text() : init.text();
        if (path == null || path.isBlank()) {
            warnings.add(where + " names no file; the colour is used");
            return null;
        }
        path = java.net.URLDecoder.decode(path.trim().replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        if (path.startsWith("file://")) {
            path = path.substring("file://".length());
        }
        return TextureImages.fromUpload(main, upload, path, where, budget, warnings);
    }

    private byte[] hex(String text, String where) {
        String digits = text == null ? "" : text.replaceAll("\\s+", "");
        if (digits.length() % 2 != 0 || !digits.matches("[0-9A-Fa-f]*")) {
            warnings.add(where + ": its embedded data is not hexadecimal; the colour is used");
            return null;
        }
        budget.charge(digits.length() / 2, 1, where + " data");
        return java.util.HexFormat.of().parseHex(digits);
    }

    private static float number(String text, String where) {
        try {
            float f = Float.parseFloat(text == null ? "" : text.trim());
            if (Float.isFinite(f)) {
                return f;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ImportException.invalid("<float> " + Text.quote(String.valueOf(text)) + " is not a finite number");
    }

    /** The RGBA of a {@code <color>} child (clamped to 0..1; alpha 1 when absent), or {@code null}. */
    private static float[] color(XmlElement parameter, String where) {
        XmlElement color = parameter == null ? null : parameter.child("color");
        if (color == null) {
            return null;
        }
        String[] parts = (color.text() == null ? "" : color.text()).trim().split("\\s+");
        if (parts.length < 3 || parts.length > 4) {
            throw ImportException.invalid("<color> has " + parts.length + " values, not 3 or 4");
        }
        float[] out = {1, 1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            float f;
            try {
                f = Float.parseFloat(parts[i]);
            } catch (NumberFormatException e) {
                throw ImportException.invalid("<color> value " + Text.quote(parts[i]) + " is not a number");
            }
            if (!Float.isFinite(f)) {
                throw ImportException.invalid("<color> value " + Text.quote(parts[i]) + " is not finite");
            }
            out[i] = Math.clamp(f, 0f, 1f);
        }
        return out;
    }

    /** symbol → the first {@code <instance_material>} of that symbol in the file. */
    private Map<String, XmlElement> instances() {
        if (instances == null) {
            instances = new HashMap<>();
            Deque<XmlElement> stack = new ArrayDeque<>();
            stack.push(doc.root());
            while (!stack.isEmpty()) {
                XmlElement e = stack.pop();
                if (e.name().equals("instance_material") && e.attr("symbol") != null && e.attr("target") != null) {
                    instances.putIfAbsent(e.attr("symbol"), e);
                }
                for (int i = e.children().size() - 1; i >= 0; i--) {
                    stack.push(e.children().get(i));
                }
            }
        }
        return instances;
    }
}

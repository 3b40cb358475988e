package io.posekit.asset.collada;

import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.skinning.Material;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The material a COLLADA primitive element names with its {@code material} symbol, as a format-neutral
 * {@link Material}: its name, the {@code profile_COMMON} technique's diffuse colour as the base colour factor and
 * its emission colour as the emissive factor (components clamped to 0..1), metallic 0 and roughness 1 (COLLADA's
 * common profile is not physically based). Textures are not carried: a textured diffuse gives a white base colour.
 *
 * <p>The symbol is bound to a material by the first {@code <instance_material symbol="…" target="#…">} with that
 * symbol anywhere in the file (instances of the same geometry that bind it to different materials share the first
 * binding), or else taken as a material id. A symbol that resolves to no usable material gives no material and one
 * warning; materials never fail an import.
 */
final class ColladaMaterials {

    private final ColladaDocument doc;
    private final ImportWarnings warnings;
    private Map<String, String> targets;
    private final Map<String, Optional<Material>> bySymbol = new HashMap<>();

    ColladaMaterials(ColladaDocument doc, ImportWarnings warnings) {
        this.doc = doc;
        this.warnings = warnings;
    }

    /** The material bound to {@code symbol}, or {@code null} when {@code symbol} is {@code null} or unusable. */
    Material forSymbol(String symbol, String where) {
        if (symbol == null || symbol.isEmpty()) {
            return null;
        }
        Optional<Material> m = bySymbol.get(symbol);
        if (m == null) {
            m = Optional.ofNullable(resolve(symbol, where));
            bySymbol.put(symbol, m);
        }
        return m.orElse(null);
    }

    private Material resolve(String symbol, String where) {
        String target = bindings().get(symbol);
        XmlElement material = target != null ? doc.resolve(target) : doc.byId(symbol);
        if (material == null || !material.name().equals("material")) {
            warnings.add(where + ": material " + Text.quote(symbol) + " is bound to no <material>; no material is used");
            return null;
        }
        String name = material.attr("name") != null ? material.attr("name") : material.attr("id");
        float[] base = {1, 1, 1, 1};
        float[] emissive = new float[3];
        XmlElement effect = material.child("instance_effect") == null ? null
                : doc.resolve(material.child("instance_effect").attr("url"));
        XmlElement technique = effect == null || effect.child("profile_COMMON") == null ? null
                : effect.child("profile_COMMON").child("technique");
        if (technique != null) {
            for (XmlElement shading : technique.children()) {
                if (!shading.name().equals("phong") && !shading.name().equals("blinn")
                        && !shading.name().equals("lambert") && !shading.name().equals("constant")) {
                    continue;
                }
                try {
                    float[] diffuse = color(shading.child("diffuse"), where);
                    if (diffuse != null) {
                        base = diffuse;
                    }
                    float[] emission = color(shading.child("emission"), where);
                    if (emission != null) {
                        emissive = new float[] {emission[0], emission[1], emission[2]};
                    }
                } catch (ImportException e) {
                    warnings.add(where + ": material " + Text.quote(symbol) + ": " + e.getMessage()
                            + "; its colours are not used");
                }
                break;
            }
        }
        return new Material(name, base, 0, 1, emissive, Material.AlphaMode.OPAQUE, 0.5f, false, null, 0);
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

    /** symbol → target of every {@code <instance_material>} in the file (the first of each symbol). */
    private Map<String, String> bindings() {
        if (targets == null) {
            targets = new HashMap<>();
            Deque<XmlElement> stack = new ArrayDeque<>();
            stack.push(doc.root());
            while (!stack.isEmpty()) {
                XmlElement e = stack.pop();
                if (e.name().equals("instance_material") && e.attr("symbol") != null && e.attr("target") != null) {
                    targets.putIfAbsent(e.attr("symbol"), e.attr("target"));
                }
                for (int i = e.children().size() - 1; i >= 0; i--) {
                    stack.push(e.children().get(i));
                }
            }
        }
        return targets;
    }
}

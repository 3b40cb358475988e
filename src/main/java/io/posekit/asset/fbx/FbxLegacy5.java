package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportWarnings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites an FBX 5.x document (versions 5000–5999: 3ds Max 7's exporter, FBX SDK 2005–2008 writing 5800) into the
 * shape of an FBX 6.x document, which {@link FbxLegacy} then rewrites into the 7.x object model — as ufbx reads its
 * "legacy" files into the one object model it has. What 5.x writes and how it is rewritten:
 * <ul>
 *   <li><b>Top-level models</b>: each object is a top-level {@code Model: "Model::Box01"} (binary 5000 files write
 *       the bare name {@code Box01}) with no {@code Objects} section; its {@code Children: "Model::a", …} list is the
 *       hierarchy. Each becomes a 6.x {@code Model} in {@code Objects} and each parent link an {@code OO} connection;
 *       a model nobody lists as a child hangs under the scene root. The type is {@code Mesh} when the model holds
 *       {@code Vertices}, else its {@code Type} ({@code LimbNode}, {@code Null}, {@code Camera}, {@code Light}).</li>
 *   <li><b>Transforms are channels</b>: a 5.x model has no {@code Lcl Translation} etc.; its rest transform is
 *       the {@code Default} of each {@code Channel: "Transform"} → {@code T}/{@code R}/{@code S} → {@code X}/{@code Y}/
 *       {@code Z} channel, held by the model itself (3ds Max 7: its {@code Fbx_Root} carries the Z-up to Y-up
 *       rotation there) and by the current take ({@code Takes} → {@code Current}, else the first take), the take's
 *       winning. Those become
 *       the model's {@code Lcl Translation}, {@code Lcl Rotation} (Euler XYZ, degrees) and {@code Lcl Scaling}. The
 *       takes themselves have the 6.x shape and are read as 6.x takes (their model names made {@code Model::name}).</li>
 *   <li><b>Geometry</b>: {@code Vertices} and {@code PolygonVertexIndex} as in 6.x; {@code Normals} (one per vertex
 *       when there are as many as vertices, else one per polygon vertex) become a {@code LayerElementNormal};
 *       {@code GeometryUVInfo}'s {@code TextureUV} with {@code TextureUVVerticeIndex} (mapping {@code ByPolygon}: one
 *       index per polygon vertex) a {@code LayerElementUV}; {@code Materials} with {@code MaterialAssignation}
 *       ({@code AllSame}, {@code ByPolygon}) a {@code LayerElementMaterial}.</li>
 *   <li><b>Materials inside the model</b>: each {@code Material: "Material::name"} child (its {@code Diffuse},
 *       {@code Ambient}, {@code Specular}, {@code Emissive}, {@code Shininess}, {@code Alpha}) becomes a material
 *       object connected to the model, in order, so that {@code Materials} indices pick them.</li>
 *   <li><b>Skins as links</b>: a mesh model's {@code Link: "Model::Bone01"} children (each {@code Indexes},
 *       {@code Weights}, {@code Transform}, {@code TransformLink}, as a 6.x cluster holds them) become one skin
 *       deformer with a cluster per link, connected to the bone it names.</li>
 * </ul>
 * What is not carried says so in a warning: a {@code GeometryUVInfo} mapped other than by polygon vertex, normals
 * whose count fits neither mapping, texture references of 5.x materials ({@code Texture}/{@code Textures} in the
 * model), and shapes ({@code Shape}). Versions below 5000 are refused by {@link FbxLegacy}.
 */
final class FbxLegacy5 {

    /** The first version this rewrites. */
    static final int FIRST_VERSION = 5000;

    private static final String[] TRS = {"T", "R", "S"};
    private static final String[] TRS_PROPERTY = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
    private static final String[] AXES = {"X", "Y", "Z"};
    private static final double[][] TRS_IDENTITY = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}};

    private final DecodeBudget budget;
    private final ImportWarnings warnings;
    private final List<FbxNode> objects = new ArrayList<>();
    private final List<FbxNode> connections = new ArrayList<>();
    private final Set<String> usedNames = new HashSet<>();

    private FbxLegacy5(DecodeBudget budget, ImportWarnings warnings) {
        this.budget = budget;
        this.warnings = warnings;
    }

    /** The FBX 6-shaped document of a 5.x one (its version record is left as it is). */
    static FbxNode toSix(FbxNode root, DecodeBudget budget, ImportWarnings warnings) {
        return new FbxLegacy5(budget, warnings).rewrite(root);
    }

    /** A 5.x model name as 6.x ASCII files write it: {@code Box01} → {@code Model::Box01}. */
    static String modelName(String name) {
        String n = FbxLegacy.canonical(name);
        return n.contains("::") ? n : "Model::" + n;
    }

    private FbxNode rewrite(FbxNode root) {
        List<FbxNode> models = root.children("Model");
        Map<String, double[][]> rest = restTransforms(models, root.child("Takes"));
        Map<String, String> parentOf = new LinkedHashMap<>();
        for (FbxNode model : models) {
            FbxNode children = model.child("Children");
            if (children == null || model.properties().isEmpty() || !(model.property(0) instanceof String name)) {
                continue;
            }
            for (Object c : children.properties()) {
                if (c instanceof String child) {
                    parentOf.putIfAbsent(modelName(child), modelName(name));
                }
            }
        }
        for (FbxNode model : models) {
            budget.checkTime();
            if (model.properties().isEmpty() || !(model.property(0) instanceof String raw)) {
                continue;
            }
            String name = modelName(raw);
            usedNames.add(name);
            model(model, name, rest.get(name));
            connections.add(new FbxNode("Connect", List.of("OO", name, parentOf.getOrDefault(name, "Model::Scene")),
                    List.of()));
        }
        List<FbxNode> top = new ArrayList<>();
        for (FbxNode record : root.children()) {
            switch (record.name()) {
                case "Model" -> {
                }
                case "Takes" -> top.add(takes(record));
                default -> top.add(record);
            }
        }
        top.add(new FbxNode("Objects", List.of(), objects));
        top.add(new FbxNode("Connections", List.of(), connections));
        return new FbxNode(root.name(), root.properties(), top);
    }

    private void model(FbxNode model, String name, double[][] trs) {
        boolean mesh = model.child("Vertices") != null;
        FbxNode type = model.child("Type");
        String subclass = mesh ? "Mesh"
                : type != null && !type.properties().isEmpty() && type.property(0) instanceof String s ? s : "Null";
        List<FbxNode> own = new ArrayList<>();
        List<FbxNode> props = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            double[] v = trs != null ? trs[k] : TRS_IDENTITY[k];
            props.add(new FbxNode("Property", List.of(TRS_PROPERTY[k], TRS_PROPERTY[k], "A", v[0], v[1], v[2]),
                    List.of()));
        }
        own.add(new FbxNode("Properties60", List.of(), props));
        int materials = 0;
        List<FbxNode> links = new ArrayList<>();
        for (FbxNode c : model.children()) {
            switch (c.name()) {
                case "Vertices", "PolygonVertexIndex", "GeometryVersion" -> {
                    if (mesh) {
                        own.add(c);
                    }
                }
                case "Material" -> {
                    material(c, name);
                    materials++;
                }
                case "Link" -> links.add(c);
                case "Texture", "Textures", "Shape" -> warnings.add("FBX 5.x " + FbxScene.display(
                        FbxScene.plainName(name)) + ": " + c.name() + " is not carried (FBX 5.x "
                        + (c.name().equals("Shape") ? "shapes" : "textures") + " are not read)");
                default -> {
                }
            }
        }
        if (mesh) {
            own.addAll(layers(model, name, materials));
        }
        objects.add(new FbxNode("Model", List.of(name, subclass), own));
        if (mesh && !links.isEmpty()) {
            skin(name, links);
        }
    }

    private List<FbxNode> layers(FbxNode model, String name, int materials) {
        List<FbxNode> layers = new ArrayList<>();
        String label = "FBX 5.x model '" + FbxScene.display(FbxScene.plainName(name)) + "'";
        int vertexCount = count(model.child("Vertices")) / 3;
        int polygonVertexCount = count(model.child("PolygonVertexIndex"));
        FbxNode normals = model.child("Normals");
        if (normals != null) {
            int n = count(normals) / 3;
            String mapping = n == vertexCount ? "ByVertice" : n == polygonVertexCount ? "ByPolygonVertex" : null;
            if (mapping == null) {
                warnings.add(label + ": " + n + " normals fit neither its " + vertexCount + " vertices nor its "
                        + polygonVertexCount + " polygon vertices; they are not read");
            } else {
                layers.add(new FbxNode("LayerElementNormal", List.of(0), List.of(
                        new FbxNode("MappingInformationType", List.of(mapping), List.of()),
                        new FbxNode("ReferenceInformationType", List.of("Direct"), List.of()),
                        new FbxNode("Normals", normals.properties(), List.of()))));
            }
        }
        FbxNode uvInfo = model.child("GeometryUVInfo");
        if (uvInfo != null && uvInfo.child("TextureUV") != null) {
            FbxNode mappingNode = uvInfo.child("MappingInformationType");
            String mapping = mappingNode != null && !mappingNode.properties().isEmpty()
                    && mappingNode.property(0) instanceof String s ? s : "";
            FbxNode index = uvInfo.child("TextureUVVerticeIndex");
            if (mapping.equals("ByPolygon") && index != null && count(index) == polygonVertexCount) {
                layers.add(new FbxNode("LayerElementUV", List.of(0), List.of(
                        new FbxNode("Name", List.of("UVChannel_1"), List.of()),
                        new FbxNode("MappingInformationType", List.of("ByPolygonVertex"), List.of()),
                        new FbxNode("ReferenceInformationType", List.of("IndexToDirect"), List.of()),
                        new FbxNode("UV", uvInfo.child("TextureUV").properties(), List.of()),
                        new FbxNode("UVIndex", index.properties(), List.of()))));
            } else {
                warnings.add(label + ": texture coordinates mapped '" + FbxScene.display(mapping) + "'"
                        + (index == null ? " without TextureUVVerticeIndex" : "") + " are not read");
            }
        }
        FbxNode assignment = model.child("MaterialAssignation");
        FbxNode indices = model.child("Materials");
        if (materials > 0 && assignment != null && indices != null && !assignment.properties().isEmpty()
                && assignment.property(0) instanceof String mode) {
            String mapping = switch (mode) {
                case "AllSame" -> "AllSame";
                case "ByPolygon" -> "ByPolygon";
                default -> null;
            };
            if (mapping == null) {
                warnings.add(label + ": MaterialAssignation '" + FbxScene.display(mode) + "' is not read; the first"
                        + " material covers the mesh");
            } else {
                layers.add(new FbxNode("LayerElementMaterial", List.of(0), List.of(
                        new FbxNode("MappingInformationType", List.of(mapping), List.of()),
                        new FbxNode("ReferenceInformationType", List.of("IndexToDirect"), List.of()),
                        new FbxNode("Materials", indices.properties(), List.of()))));
            }
        }
        return layers;
    }

    /** The number of values of an array record: one array property, or (ASCII) a plain list of numbers. */
    private static int count(FbxNode node) {
        if (node == null || node.properties().isEmpty()) {
            return 0;
        }
        Object first = node.properties().getFirst();
        if (node.properties().size() == 1 && first.getClass().isArray()) {
            return java.lang.reflect.Array.getLength(first);
        }
        return node.properties().size();
    }

    private void material(FbxNode material, String model) {
        String name = material.properties().isEmpty() || !(material.property(0) instanceof String s)
                ? "Material::" : FbxLegacy.canonical(s);
        String unique = name;
        for (int i = 2; !usedNames.add(unique); i++) {
            unique = name + " (" + i + ")";
        }
        List<FbxNode> props = new ArrayList<>();
        colour(material, "Ambient", "AmbientColor", props);
        colour(material, "Diffuse", "DiffuseColor", props);
        colour(material, "Specular", "SpecularColor", props);
        colour(material, "Emissive", "EmissiveColor", props);
        FbxNode shininess = material.child("Shininess");
        if (shininess != null && !shininess.properties().isEmpty()) {
            props.add(new FbxNode("Property", List.of("Shininess", "double", "", shininess.number(0)), List.of()));
        }
        FbxNode alpha = material.child("Alpha");
        if (alpha != null && !alpha.properties().isEmpty()) {
            props.add(new FbxNode("Property", List.of("Opacity", "double", "", alpha.number(0)), List.of()));
        }
        FbxNode shading = material.child("ShadingModel");
        List<FbxNode> own = new ArrayList<>();
        if (shading != null) {
            own.add(shading);
        }
        own.add(new FbxNode("Properties60", List.of(), props));
        objects.add(new FbxNode("Material", List.of(unique, ""), own));
        connections.add(new FbxNode("Connect", List.of("OO", unique, model), List.of()));
    }

    private static void colour(FbxNode material, String from, String to, List<FbxNode> props) {
        FbxNode c = material.child(from);
        if (c != null && c.properties().size() >= 3) {
            props.add(new FbxNode("Property", List.of(to, "Color", "A", c.number(0), c.number(1), c.number(2)),
                    List.of()));
        }
    }

    private void skin(String model, List<FbxNode> links) {
        String plain = FbxScene.plainName(model);
        String skin = "Deformer::Skin " + plain;
        objects.add(new FbxNode("Deformer", List.of(skin, "Skin"), List.of()));
        connections.add(new FbxNode("Connect", List.of("OO", skin, model), List.of()));
        for (FbxNode link : links) {
            if (link.properties().isEmpty() || !(link.property(0) instanceof String bone)) {
                continue;
            }
            String boneName = modelName(bone);
            String cluster = "SubDeformer::Cluster " + plain + " " + FbxScene.plainName(boneName);
            List<FbxNode> own = new ArrayList<>();
            for (FbxNode c : link.children()) {
                if (Set.of("Indexes", "Weights", "Transform", "TransformLink").contains(c.name())) {
                    own.add(c);
                }
            }
            objects.add(new FbxNode("Deformer", List.of(cluster, "Cluster"), own));
            connections.add(new FbxNode("Connect", List.of("OO", cluster, skin), List.of()));
            connections.add(new FbxNode("Connect", List.of("OO", boneName, cluster), List.of()));
        }
    }

    /**
     * Each model's rest T, R, S: the channel defaults the model holds itself (3ds Max 7 writes them there), then
     * those of the current take (else the first), which win where both are given.
     */
    private Map<String, double[][]> restTransforms(List<FbxNode> models, FbxNode takes) {
        Map<String, double[][]> rest = new HashMap<>();
        for (FbxNode model : models) {
            FbxNode transform = channel(model, "Transform");
            if (transform != null && !model.properties().isEmpty() && model.property(0) instanceof String name) {
                defaults(transform, rest.computeIfAbsent(modelName(name), n -> identity()));
            }
        }
        if (takes == null) {
            return rest;
        }
        FbxNode current = takes.child("Current");
        String currentName = current != null && !current.properties().isEmpty()
                && current.property(0) instanceof String s ? s : null;
        FbxNode take = null;
        for (FbxNode t : takes.children("Take")) {
            if (take == null || currentName != null && !t.properties().isEmpty() && currentName.equals(t.property(0))) {
                take = t;
            }
        }
        if (take == null) {
            return rest;
        }
        for (FbxNode model : take.children("Model")) {
            budget.checkTime();
            if (model.properties().isEmpty() || !(model.property(0) instanceof String name)) {
                continue;
            }
            FbxNode transform = channel(model, "Transform");
            if (transform != null) {
                defaults(transform, rest.computeIfAbsent(modelName(name), n -> identity()));
            }
        }
        return rest;
    }

    private static double[][] identity() {
        return new double[][] {TRS_IDENTITY[0].clone(), TRS_IDENTITY[1].clone(), TRS_IDENTITY[2].clone()};
    }

    /** Sets {@code trs} from the {@code Default}s of a {@code Channel: "Transform"}'s T, R, S channels. */
    private static void defaults(FbxNode transform, double[][] trs) {
        for (int k = 0; k < 3; k++) {
            FbxNode c = channel(transform, TRS[k]);
            for (int a = 0; c != null && a < 3; a++) {
                FbxNode axis = channel(c, AXES[a]);
                FbxNode def = axis == null ? null : axis.child("Default");
                if (def != null && !def.properties().isEmpty()) {
                    trs[k][a] = def.number(0);
                }
            }
        }
    }

    private static FbxNode channel(FbxNode parent, String name) {
        for (FbxNode c : parent.children("Channel")) {
            if (!c.properties().isEmpty() && name.equals(c.property(0))) {
                return c;
            }
        }
        return null;
    }

    /** The takes with their models named as 6.x names them ({@code Model::name}). */
    private static FbxNode takes(FbxNode takes) {
        List<FbxNode> out = new ArrayList<>();
        for (FbxNode t : takes.children()) {
            if (!t.name().equals("Take")) {
                out.add(t);
                continue;
            }
            List<FbxNode> children = new ArrayList<>();
            for (FbxNode c : t.children()) {
                if (c.name().equals("Model") && !c.properties().isEmpty() && c.property(0) instanceof String n) {
                    children.add(new FbxNode("Model", List.of(modelName(n)), c.children()));
                } else {
                    children.add(c);
                }
            }
            out.add(new FbxNode(t.name(), t.properties(), children));
        }
        return new FbxNode(takes.name(), takes.properties(), out);
    }
}

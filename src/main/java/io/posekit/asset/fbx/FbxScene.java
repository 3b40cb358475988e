package io.posekit.asset.fbx;

import io.posekit.asset.DecodeBudget;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportWarnings;
import io.posekit.asset.ModelSpace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The object graph of an FBX 7.x document, as the scene interpretation sees it: the records of {@code Objects} by id,
 * the {@code Connections} between them, the property templates of {@code Definitions} and the {@code GlobalSettings}.
 *
 * <ul>
 *   <li><b>Objects</b>: every child of {@code Objects} whose property 0 is an integer id (int64). Its record name is the
 *       object's type ({@code Model}, {@code Geometry}, {@code Deformer}, …), property 1 its name — binary files write
 *       {@code Name\0\1Class}, ASCII files {@code Class::Name}; both give the plain {@code Name} — and property 2 its
 *       subclass ({@code LimbNode}, {@code Mesh}, {@code Skin}, {@code Cluster}, …). Two objects with one id are
 *       invalid (422).</li>
 *   <li><b>Connections</b>: {@code C: "OO", child, parent} links an object to an object, {@code C: "OP", child, parent,
 *       "property"} an object to a property of another (an animation curve node to {@code Lcl Rotation}, a curve to
 *       {@code d|X}); id 0 is the scene root. Both are kept in file order; connections naming an id that is not an
 *       object (other than the root) are dropped, counted in one warning.</li>
 *   <li><b>Templates</b>: {@code Definitions/ObjectType: "Model"/PropertyTemplate/Properties70} gives every Model the
 *       defaults for the properties it does not set itself (see {@link FbxProperties}).</li>
 * </ul>
 *
 * <p>Only FBX 7.x (version 7000 and later) has this object model; older files are rejected as unsupported (415).
 */
final class FbxScene {

    /** The id of the scene root in {@code Connections}. */
    static final long ROOT_ID = 0;
    /** FBX time: ticks per second (KTime). */
    static final long TICKS_PER_SECOND = 46_186_158_000L;
    /** What one object or connection is charged to the decode budget (the maps and records that index it). */
    private static final int ENTRY_BYTES = 96;

    /**
     * One record of {@code Objects}.
     *
     * @param id the object's int64 id
     * @param type the record name, e.g. {@code Model}
     * @param name the plain name ({@code ""} when the file gives none)
     * @param subclass property 2, e.g. {@code LimbNode} ({@code ""} when absent)
     * @param node the record
     * @param order the position among the objects of its type, in file order
     */
    record FbxObject(long id, String type, String name, String subclass, FbxNode node, int order) {

        /** How messages name the object, e.g. {@code Model 'Bone.001'}. */
        String label() {
            return type + " '" + display(name) + "'";
        }

        /** The first child record called {@code child}, or {@code null}. */
        FbxNode child(String child) {
            return node.child(child);
        }
    }

    /**
     * One record of {@code Connections}.
     *
     * @param toProperty whether it is an {@code OP} connection (to a property of the parent)
     * @param child the child id
     * @param parent the parent id
     * @param property the parent's property ({@code OP}), else {@code null}
     */
    record Connection(boolean toProperty, long child, long parent, String property) {
    }

    private final Map<Long, FbxObject> byId = new HashMap<>();
    private final Map<String, List<FbxObject>> byType = new HashMap<>();
    private final Map<Long, List<Connection>> byChild = new HashMap<>();
    private final Map<Long, List<Connection>> byParent = new HashMap<>();
    private final Map<String, FbxNode> templates = new HashMap<>();
    private final FbxNode root;

    private FbxScene(FbxNode root) {
        this.root = root;
    }

    /**
     * Indexes a document.
     *
     * @param root the synthetic root holding the top-level records
     * @param version the file's FBX version, e.g. 7400
     * @throws ImportException unsupported (415) before FBX 7.0, invalid (422) for malformed objects or connections
     */
    static FbxScene of(FbxNode root, int version, DecodeBudget budget, ImportWarnings warnings) {
        if (version < 7000) {
            throw ImportException.unsupported("FBX version " + version + " predates FBX 7.0 (2011), whose object model"
                    + " (Objects with ids, Connections) posekit reads; re-export the file as FBX 7.x (e.g. FBX 2014)");
        }
        FbxScene scene = new FbxScene(root);
        scene.readTemplates();
        scene.readObjects(budget, warnings);
        scene.readConnections(budget, warnings);
        return scene;
    }

    private void readTemplates() {
        FbxNode definitions = root.child("Definitions");
        if (definitions == null) {
            return;
        }
        for (FbxNode objectType : definitions.children("ObjectType")) {
            if (objectType.properties().isEmpty() || !(objectType.property(0) instanceof String type)) {
                continue;
            }
            for (FbxNode template : objectType.children("PropertyTemplate")) {
                FbxNode props = template.child("Properties70");
                if (props != null) {
                    templates.putIfAbsent(type, props);
                    break;
                }
            }
        }
    }

    private void readObjects(DecodeBudget budget, ImportWarnings warnings) {
        FbxNode section = root.child("Objects");
        if (section == null) {
            return;
        }
        budget.charge(section.children().size(), ENTRY_BYTES, "FBX objects index");
        int skipped = 0;
        for (FbxNode record : section.children()) {
            budget.checkTime();
            if (record.properties().isEmpty() || !isInteger(record.property(0))) {
                skipped++;
                continue;
            }
            long id = record.integer(0);
            String rawName = record.properties().size() > 1 && record.property(1) instanceof String s ? s : "";
            String subclass = record.properties().size() > 2 && record.property(2) instanceof String s ? s : "";
            List<FbxObject> ofType = byType.computeIfAbsent(record.name(), k -> new ArrayList<>());
            FbxObject object = new FbxObject(id, record.name(), plainName(rawName), subclass, record, ofType.size());
            FbxObject previous = byId.putIfAbsent(id, object);
            if (previous != null) {
                throw ImportException.invalid("Objects: id " + id + " is used by two objects, " + previous.label()
                        + " and " + object.label());
            }
            if (id == ROOT_ID) {
                throw ImportException.invalid("Objects: " + object.label() + " has id 0, which is the scene root's");
            }
            ofType.add(object);
        }
        if (skipped > 0) {
            warnings.add(skipped + " record(s) of Objects have no integer id; ignored");
        }
    }

    private void readConnections(DecodeBudget budget, ImportWarnings warnings) {
        FbxNode section = root.child("Connections");
        if (section == null) {
            return;
        }
        budget.charge(section.children().size(), 2 * ENTRY_BYTES, "FBX connections index");
        int dangling = 0;
        int index = 0;
        for (FbxNode c : section.children()) {
            budget.checkTime();
            index++;
            if (!c.name().equals("C")) {
                continue;
            }
            String where = "Connections: connection " + index;
            if (c.properties().size() < 3 || !(c.property(0) instanceof String kind)) {
                throw ImportException.invalid(where + " needs a type (\"OO\", \"OP\") and two ids");
            }
            if (!isInteger(c.property(1)) || !isInteger(c.property(2))) {
                throw ImportException.invalid(where + " (" + display(kind) + ") does not connect two integer ids");
            }
            long child = c.integer(1);
            long parent = c.integer(2);
            boolean toProperty;
            String property = null;
            switch (kind.toUpperCase(Locale.ROOT)) {
                case "OO" -> toProperty = false;
                case "OP" -> {
                    toProperty = true;
                    if (c.properties().size() < 4 || !(c.property(3) instanceof String p)) {
                        throw ImportException.invalid(where + " (OP " + child + " → " + parent + ") names no property");
                    }
                    property = p;
                }
                default -> {
                    continue; // PO/PP connect properties to properties: nothing posekit evaluates
                }
            }
            if (!byId.containsKey(child) || (parent != ROOT_ID && !byId.containsKey(parent))) {
                dangling++;
                continue;
            }
            Connection conn = new Connection(toProperty, child, parent, property);
            byChild.computeIfAbsent(child, k -> new ArrayList<>()).add(conn);
            byParent.computeIfAbsent(parent, k -> new ArrayList<>()).add(conn);
        }
        if (dangling > 0) {
            warnings.add(dangling + " connection(s) name objects the file does not have; ignored");
        }
    }

    private static boolean isInteger(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short;
    }

    /**
     * The plain name of an object name property: {@code Name} from binary {@code Name\0\1Class} or ASCII
     * {@code Class::Name}; any other string as it is.
     */
    static String plainName(String raw) {
        int separator = raw.indexOf("\0\1");
        if (separator >= 0) {
            return raw.substring(0, separator);
        }
        int colons = raw.indexOf("::");
        return colons >= 0 ? raw.substring(colons + 2) : raw;
    }

    /** A name or text for messages: control characters escaped, at most 60 characters. */
    static String display(String s) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), 60) + 4);
        for (int i = 0; i < s.length() && i < 60; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\x%02X", (int) c));
            } else {
                out.append(c);
            }
        }
        return s.length() > 60 ? out.append('…').toString() : out.toString();
    }

    /** The tool that wrote the document, from its {@code Creator} strings. */
    FbxExporter exporter() {
        return FbxExporter.of(root);
    }

    /**
     * Whether Maya wrote the document: its {@code SceneInfo} (in the {@code FBXHeaderExtension}, or among the
     * {@code Objects} in FBX 6.x) names Maya as the {@code Original|ApplicationName} ({@code Properties70 P} or
     * {@code Properties60 Property}).
     */
    boolean writtenByMaya() {
        FbxNode header = root.child("FBXHeaderExtension");
        FbxNode objects = root.child("Objects");
        FbxNode info = header == null ? null : header.child("SceneInfo");
        if (info == null) {
            info = objects == null ? null : objects.child("SceneInfo"); // FBX 6.x keeps it among the objects
        }
        if (info == null) {
            return false;
        }
        for (FbxNode properties : info.children()) {
            if (!properties.name().equals("Properties70") && !properties.name().equals("Properties60")) {
                continue;
            }
            for (FbxNode p : properties.children()) {
                List<Object> values = p.properties();
                if (values.size() >= 2 && "Original|ApplicationName".equals(values.getFirst())
                        && values.getLast() instanceof String name) {
                    return name.equals("Maya") || name.startsWith("Maya ");
                }
            }
        }
        return false;
    }

    /** The top-level record called {@code name} (e.g. {@code GlobalSettings}), or {@code null}. */
    FbxNode topLevel(String name) {
        return root.child(name);
    }

    /** The object with this id, or {@code null}. */
    FbxObject object(long id) {
        return byId.get(id);
    }

    /** The objects of one type ({@code Model}, …), in file order. */
    List<FbxObject> objects(String type) {
        return byType.getOrDefault(type, List.of());
    }

    /** The connections whose child is {@code id}, in file order. */
    List<Connection> parentsOf(long id) {
        return byChild.getOrDefault(id, List.of());
    }

    /** The connections whose parent is {@code id}, in file order. */
    List<Connection> childrenOf(long id) {
        return byParent.getOrDefault(id, List.of());
    }

    /**
     * The objects of {@code type} (and {@code subclass}, unless {@code null}) connected object-to-object as children of
     * {@code parent}, in connection order.
     */
    List<FbxObject> sources(long parent, String type, String subclass) {
        List<FbxObject> out = new ArrayList<>();
        for (Connection c : childrenOf(parent)) {
            FbxObject o = byId.get(c.child());
            if (!c.toProperty() && o != null && o.type().equals(type) && (subclass == null || o.subclass().equals(subclass))) {
                out.add(o);
            }
        }
        return out;
    }

    /** The properties of {@code object}: its own {@code Properties70}, then its type's template. */
    FbxProperties properties(FbxObject object) {
        return new FbxProperties(object.child("Properties70"), templates.get(object.type()), object.label());
    }

    /** The {@code GlobalSettings} properties (no template). */
    FbxProperties globalSettings() {
        FbxNode settings = root.child("GlobalSettings");
        return new FbxProperties(settings == null ? null : settings.child("Properties70"), null, "GlobalSettings");
    }

    /**
     * The summary of {@code GlobalSettings} reported as a warning: the axes and the unit. Model space stays the file's
     * own; the exports convert it to glTF's metres and Y-up ({@link #modelSpace}).
     */
    String globalSettingsSummary() {
        FbxProperties g = globalSettings();
        double unit = g.number("UnitScaleFactor", 1);
        return "FBX GlobalSettings: UpAxis " + axis(g, "UpAxis", 1) + ", FrontAxis " + axis(g, "FrontAxis", 2)
                + ", CoordAxis " + axis(g, "CoordAxis", 0) + ", UnitScaleFactor " + number(unit) + " (1 unit = "
                + number(unit) + " cm); model space is the file's own, animated.glb and posed.glb convert it to glTF's"
                + " metres and Y-up";
    }

    /**
     * The axes and unit {@code GlobalSettings} declares, as ufbx reads them: {@code CoordAxis}/{@code CoordAxisSign}
     * right, {@code UpAxis}/{@code UpAxisSign} up, {@code FrontAxis}/{@code FrontAxisSign} front (the FBX SDK's
     * defaults +X, +Y, +Z where absent), {@code UnitScaleFactor} centimetres per unit (default 1) and
     * {@code OriginalUnitScaleFactor} (default the former). Axes that are not three different ones of 0..2 are
     * replaced by glTF's (no rotation can be made of them), and a unit that is not a positive number by 1 cm, each
     * with a warning.
     */
    ModelSpace modelSpace(ImportWarnings warnings) {
        FbxProperties g = globalSettings();
        ModelSpace.Axis right = ModelSpace.Axis.of(g.integer("CoordAxis", 0), g.integer("CoordAxisSign", 1));
        ModelSpace.Axis up = ModelSpace.Axis.of(g.integer("UpAxis", 1), g.integer("UpAxisSign", 1));
        ModelSpace.Axis front = ModelSpace.Axis.of(g.integer("FrontAxis", 2), g.integer("FrontAxisSign", 1));
        double unit = g.number("UnitScaleFactor", 1);
        if (!(unit > 0) || !Double.isFinite(unit / 100)) {
            warnings.add("GlobalSettings: UnitScaleFactor " + unit + " is not a positive number; 1 (cm) is used");
            unit = 1;
        }
        double original = g.number("OriginalUnitScaleFactor", unit);
        if (!(original > 0) || !Double.isFinite(original / 100)) {
            original = unit;
        }
        if (right == null || up == null || front == null || right.index() == up.index()
                || right.index() == front.index() || up.index() == front.index()) {
            warnings.add("GlobalSettings: CoordAxis " + axis(g, "CoordAxis", 0) + ", UpAxis " + axis(g, "UpAxis", 1)
                    + ", FrontAxis " + axis(g, "FrontAxis", 2) + " are not three different axes; glTF's (+X right, +Y"
                    + " up, +Z front) are used");
            right = ModelSpace.Axis.PLUS_X;
            up = ModelSpace.Axis.PLUS_Y;
            front = ModelSpace.Axis.PLUS_Z;
        }
        return new ModelSpace(right, up, front, unit / 100, original / 100);
    }

    private static String axis(FbxProperties g, String name, long dflt) {
        long axis = g.integer(name, dflt);
        long sign = g.integer(name + "Sign", 1);
        String letter = axis >= 0 && axis <= 2 ? String.valueOf("XYZ".charAt((int) axis)) : "?" + axis;
        return (sign < 0 ? "-" : "+") + letter;
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
    }
}

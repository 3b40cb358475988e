package io.posekit.asset.collada;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writes small COLLADA documents for tests: the document skeleton (asset, libraries, scene) around XML fragments
 * the test supplies, plus helpers for the verbose parts ({@code <source>}s, a sampler with its channel).
 */
public final class DaeBuilder {

    private String upAxis;
    private String unit;
    private String version = "1.4.1";
    private String namespace = ColladaDocument.NAMESPACE_14;
    private String sceneId = "Scene";
    private String sceneName = "Scene";
    private final StringBuilder geometries = new StringBuilder();
    private final StringBuilder controllers = new StringBuilder();
    private final StringBuilder animations = new StringBuilder();
    private final StringBuilder clips = new StringBuilder();
    private final StringBuilder libraryNodes = new StringBuilder();
    private final StringBuilder nodes = new StringBuilder();

    public DaeBuilder upAxis(String axis) {
        this.upAxis = axis;
        return this;
    }

    public DaeBuilder unit(String meter) {
        this.unit = meter;
        return this;
    }

    public DaeBuilder version(String v) {
        this.version = v;
        return this;
    }

    public DaeBuilder namespace(String ns) {
        this.namespace = ns;
        return this;
    }

    public DaeBuilder scene(String id, String name) {
        this.sceneId = id;
        this.sceneName = name;
        return this;
    }

    /** Adds {@code <geometry id name><mesh>meshContent</mesh></geometry>}. */
    public DaeBuilder geometry(String id, String name, String meshContent) {
        geometries.append("<geometry id=\"").append(id).append('"')
                .append(name == null ? "" : " name=\"" + name + "\"").append("><mesh>").append(meshContent)
                .append("</mesh></geometry>\n");
        return this;
    }

    /** Adds a raw element to {@code <library_geometries>}. */
    public DaeBuilder rawGeometry(String xml) {
        geometries.append(xml).append('\n');
        return this;
    }

    public DaeBuilder controller(String xml) {
        controllers.append(xml).append('\n');
        return this;
    }

    public DaeBuilder animation(String xml) {
        animations.append(xml).append('\n');
        return this;
    }

    public DaeBuilder clip(String xml) {
        clips.append(xml).append('\n');
        return this;
    }

    public DaeBuilder libraryNode(String xml) {
        libraryNodes.append(xml).append('\n');
        return this;
    }

    /** Adds a top-level node of the visual scene. */
    public DaeBuilder node(String xml) {
        nodes.append(xml).append('\n');
        return this;
    }

    public String toXml() {
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        s.append("<COLLADA").append(namespace == null ? "" : " xmlns=\"" + namespace + "\"")
                .append(version == null ? "" : " version=\"" + version + "\"").append(">\n");
        s.append("<asset>");
        if (unit != null) {
            s.append("<unit name=\"u\" meter=\"").append(unit).append("\"/>");
        }
        if (upAxis != null) {
            s.append("<up_axis>").append(upAxis).append("</up_axis>");
        }
        s.append("</asset>\n");
        section(s, "library_geometries", geometries);
        section(s, "library_controllers", controllers);
        section(s, "library_animations", animations);
        section(s, "library_animation_clips", clips);
        section(s, "library_nodes", libraryNodes);
        s.append("<library_visual_scenes><visual_scene id=\"").append(sceneId).append('"')
                .append(sceneName == null ? "" : " name=\"" + sceneName + "\"").append(">\n").append(nodes)
                .append("</visual_scene></library_visual_scenes>\n");
        s.append("<scene><instance_visual_scene url=\"#").append(sceneId).append("\"/></scene>\n");
        s.append("</COLLADA>\n");
        return s.toString();
    }

    public byte[] toBytes() {
        return toXml().getBytes(StandardCharsets.UTF_8);
    }

    private static void section(StringBuilder s, String name, StringBuilder content) {
        if (!content.isEmpty()) {
            s.append('<').append(name).append(">\n").append(content).append("</").append(name).append(">\n");
        }
    }

    /** A float {@code <source>} whose accessor has one named param per letter of {@code params} (e.g. "XYZ"). */
    public static String floats(String id, String params, double... values) {
        StringBuilder p = new StringBuilder();
        for (char c : params.toCharArray()) {
            p.append("<param name=\"").append(c).append("\" type=\"float\"/>");
        }
        return floatSource(id, params.length(), values.length / params.length(), p.toString(), values);
    }

    /** A float source of 4×4 matrices (param TRANSFORM float4x4). */
    public static String matrices(String id, double... values) {
        return floatSource(id, 16, values.length / 16, "<param name=\"TRANSFORM\" type=\"float4x4\"/>", values);
    }

    public static String floatSource(String id, int stride, int count, String params, double... values) {
        return "<source id=\"" + id + "\"><float_array id=\"" + id + "-array\" count=\"" + values.length + "\">"
                + list(values) + "</float_array><technique_common><accessor source=\"#" + id + "-array\" count=\""
                + count + "\" stride=\"" + stride + "\">" + params + "</accessor></technique_common></source>";
    }

    /** A {@code Name_array} (or other name-like array) source with one param. */
    public static String names(String id, String arrayTag, String param, String... names) {
        return "<source id=\"" + id + "\"><" + arrayTag + " id=\"" + id + "-array\" count=\"" + names.length + "\">"
                + String.join(" ", names) + "</" + arrayTag + "><technique_common><accessor source=\"#" + id
                + "-array\" count=\"" + names.length + "\" stride=\"1\"><param name=\"" + param + "\" type=\"name\"/>"
                + "</accessor></technique_common></source>";
    }

    /** Space-separated numbers, integers without a fraction. */
    public static String list(double... values) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                s.append(' ');
            }
            double v = values[i];
            s.append(v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v));
        }
        return s.toString();
    }

    /**
     * An {@code <animation id>} with one sampler and one channel: times, output (stride {@code stride}), per-key
     * interpolation names (or {@code null}), and optional tangent sources' XML (already built, ids
     * {@code id-in}/{@code id-out}).
     */
    public static String animation(String id, String target, double[] times, int stride, double[] values, String[] interpolations,
            String inTangents, String outTangents) {
        StringBuilder s = new StringBuilder();
        s.append("<animation id=\"").append(id).append("\">");
        s.append(floats(id + "-input", "T", times));
        StringBuilder params = new StringBuilder();
        for (int i = 0; i < stride; i++) {
            params.append("<param name=\"V").append(i).append("\" type=\"float\"/>");
        }
        if (stride == 16) {
            s.append(matrices(id + "-output", values));
        } else {
            s.append(floatSource(id + "-output", stride, values.length / stride, params.toString(), values));
        }
        if (interpolations != null) {
            s.append(names(id + "-interp", "Name_array", "INTERPOLATION", interpolations));
        }
        if (inTangents != null) {
            s.append(inTangents).append(outTangents);
        }
        s.append("<sampler id=\"").append(id).append("-sampler\">");
        s.append("<input semantic=\"INPUT\" source=\"#").append(id).append("-input\"/>");
        s.append("<input semantic=\"OUTPUT\" source=\"#").append(id).append("-output\"/>");
        if (interpolations != null) {
            s.append("<input semantic=\"INTERPOLATION\" source=\"#").append(id).append("-interp\"/>");
        }
        if (inTangents != null) {
            s.append("<input semantic=\"IN_TANGENT\" source=\"#").append(id).append("-in\"/>");
            s.append("<input semantic=\"OUT_TANGENT\" source=\"#").append(id).append("-out\"/>");
        }
        s.append("</sampler>");
        s.append("<channel source=\"#").append(id).append("-sampler\" target=\"").append(target).append("\"/>");
        s.append("</animation>");
        return s.toString();
    }

    /** {@link #animation} with LINEAR keys (no INTERPOLATION source) and no tangents. */
    public static String linear(String id, String target, double[] times, int stride, double... values) {
        return animation(id, target, times, stride, values, null, null, null);
    }

    /** An {@code n}-fold repetition of {@code word}. */
    public static String[] repeat(String word, int n) {
        String[] out = new String[n];
        java.util.Arrays.fill(out, word);
        return out;
    }

    /** A unit cube-ish quad mesh: 4 positions, 1 normal, one polylist quad (VERTEX offset 0, NORMAL offset 1). */
    public static String quadMesh(String id) {
        return floats(id + "-positions", "XYZ", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0)
                + floats(id + "-normals", "XYZ", 0, 0, 1)
                + "<vertices id=\"" + id + "-vertices\"><input semantic=\"POSITION\" source=\"#" + id + "-positions\"/></vertices>"
                + "<polylist count=\"1\"><input semantic=\"VERTEX\" source=\"#" + id + "-vertices\" offset=\"0\"/>"
                + "<input semantic=\"NORMAL\" source=\"#" + id + "-normals\" offset=\"1\"/>"
                + "<vcount>4</vcount><p>0 0 1 0 2 0 3 0</p></polylist>";
    }
}

package io.posekit.asset.fbx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Builds FBX documents as {@link FbxNode} trees in code — the shape both containers produce — for the scene
 * interpretation tests: objects ({@code Model}, {@code Geometry}, …) with binary-style names ({@code Name\0\1Class}),
 * connections, definitions, global settings and takes. {@link #importScene()} runs the importer on the tree.
 */
final class FbxSceneFixture {

    private final List<FbxNode> objects = new ArrayList<>();
    private final List<FbxNode> connections = new ArrayList<>();
    private final List<FbxNode> topLevel = new ArrayList<>();
    private int version = 7400;

    /** A record with properties and no children. */
    static FbxNode leaf(String name, Object... properties) {
        return new FbxNode(name, Arrays.asList(properties), List.of());
    }

    /** A record with properties and children. */
    static FbxNode node(String name, List<Object> properties, FbxNode... children) {
        return new FbxNode(name, properties, List.of(children));
    }

    /** A property record {@code P: name, type, "", "A", values…}. */
    static FbxNode p(String name, Object... values) {
        List<Object> props = new ArrayList<>(List.of(name, "Number", "", "A"));
        props.addAll(Arrays.asList(values));
        return new FbxNode("P", props, List.of());
    }

    /** A vector property record with three doubles. */
    static FbxNode vec(String name, double x, double y, double z) {
        return p(name, x, y, z);
    }

    /** {@code Properties70} holding {@code ps}. */
    static FbxNode props(FbxNode... ps) {
        return new FbxNode("Properties70", List.of(), List.of(ps));
    }

    /** A binary-style object name. */
    static String name(String name, String cls) {
        return name + "\0\1" + cls;
    }

    FbxSceneFixture version(int v) {
        version = v;
        return this;
    }

    /** Any object record: {@code type: id, "name\0\1Class", subclass} with children. */
    FbxSceneFixture object(String type, long id, String name, String subclass, FbxNode... children) {
        objects.add(new FbxNode(type, List.of(id, name(name, type), subclass), List.of(children)));
        return this;
    }

    /** An object record with its raw property list. */
    FbxSceneFixture rawObject(String type, List<Object> properties, FbxNode... children) {
        objects.add(new FbxNode(type, properties, List.of(children)));
        return this;
    }

    /** A Model with the given property records. */
    FbxSceneFixture model(long id, String name, String subclass, FbxNode... properties) {
        return object("Model", id, name, subclass, leaf("Version", 232), props(properties));
    }

    /** A Model connected to {@code parent} (0 = the scene root). */
    FbxSceneFixture model(long id, String name, long parent, FbxNode... properties) {
        model(id, name, "LimbNode", properties);
        return oo(id, parent);
    }

    FbxSceneFixture oo(long child, long parent) {
        connections.add(leaf("C", "OO", child, parent));
        return this;
    }

    FbxSceneFixture op(long child, long parent, String property) {
        connections.add(leaf("C", "OP", child, parent, property));
        return this;
    }

    /** A top-level record (GlobalSettings, Definitions, Takes …). */
    FbxSceneFixture top(FbxNode record) {
        topLevel.add(record);
        return this;
    }

    /** A Model property template in {@code Definitions}. */
    FbxSceneFixture modelTemplate(FbxNode... properties) {
        return top(node("Definitions", List.of(), node("ObjectType", List.of("Model"),
                node("PropertyTemplate", List.of("FbxNode"), props(properties)))));
    }

    /**
     * A mesh geometry: control points, polygon vertex index (negative ends a polygon) and optional layer elements.
     */
    FbxSceneFixture geometry(long id, String name, double[] vertices, int[] polygonVertexIndex, FbxNode... layers) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Vertices", (Object) vertices));
        children.add(leaf("PolygonVertexIndex", (Object) polygonVertexIndex));
        children.addAll(List.of(layers));
        return object("Geometry", id, name, "Mesh", children.toArray(FbxNode[]::new));
    }

    /** A layer element, e.g. {@code LayerElementNormal} with {@code Normals} and optionally {@code NormalsIndex}. */
    static FbxNode layer(String element, String mapping, String reference, String arrayName, double[] data, int[] index) {
        List<FbxNode> children = new ArrayList<>();
        children.add(leaf("Version", 101));
        children.add(leaf("MappingInformationType", mapping));
        children.add(leaf("ReferenceInformationType", reference));
        children.add(leaf(arrayName, (Object) data));
        if (index != null) {
            children.add(leaf(arrayName + "Index", (Object) index));
        }
        return new FbxNode(element, List.of(0), children);
    }

    /** The document's root. */
    FbxNode root() {
        List<FbxNode> top = new ArrayList<>(topLevel);
        top.add(new FbxNode("Objects", List.of(), objects));
        top.add(new FbxNode("Connections", List.of(), connections));
        return new FbxNode("", List.of(), top);
    }

    /** Interprets the document with the default limits. */
    ImportScene importScene() {
        return importScene(ImportLimits.DEFAULT);
    }

    ImportScene importScene(ImportLimits limits) {
        return FbxImporter.interpret(root(), version, limits, limits.newBudget());
    }

    /** Interprets and builds the runtime model (so what the importer emits also passes the builder). */
    Model build() {
        return ModelBuilder.build(AssetFormat.FBX, importScene());
    }

    /** The index of the import node named {@code name}. */
    static int node(ImportScene scene, String name) {
        for (int i = 0; i < scene.nodes().size(); i++) {
            if (name.equals(scene.nodes().get(i).name())) {
                return i;
            }
        }
        throw new AssertionError("no node named " + name + " in " + scene.nodes().stream().map(ImportScene.Node::name).toList());
    }

    /** The ImportException {@code call} fails with (the test fails when it succeeds or throws anything else). */
    static ImportException failure(ThrowingCallable call) {
        ImportException e = catchThrowableOfType(ImportException.class, call);
        assertThat(e).as("expected an ImportException").isNotNull();
        return e;
    }

    /** Asserts that {@code call} fails as invalid (422) with exactly {@code message}. */
    static void assertInvalid(ThrowingCallable call, String message) {
        ImportException e = failure(call);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(ImportException.Kind.INVALID);
    }

    /** A column-major 4×4 from rows written out by hand. */
    static double[] rows(double... rowMajor) {
        double[] m = new double[16];
        for (int r = 0; r < 4; r++) {
            for (int c = 0; c < 4; c++) {
                m[4 * c + r] = rowMajor[4 * r + c];
            }
        }
        return m;
    }

    /** The column-major matrix of import node {@code i}'s rest TRS. */
    static double[] restMatrix(ImportScene scene, int i) {
        ImportScene.Node n = scene.nodes().get(i);
        double[] m = new double[16];
        io.posekit.math.Matrices.composeTrs(n.translation(), 0, n.rotation(), 0, n.scale(), 0, m, 0);
        return m;
    }

    /** The rest world matrix of import node {@code i} (the product of its ancestors' rest matrices). */
    static double[] restWorld(ImportScene scene, int i) {
        double[] m = restMatrix(scene, i);
        int p = scene.nodes().get(i).parent();
        return p < 0 ? m : FbxTransform.times(restWorld(scene, p), m);
    }

    /** Asserts two column-major matrices agree element-wise within {@code tolerance}. */
    static void assertMatrix(double[] actual, double[] expected, double tolerance) {
        for (int i = 0; i < 16; i++) {
            assertThat(actual[i]).as("element %d (row %d, column %d) of %s", i, i % 4, i / 4, Arrays.toString(actual))
                    .isCloseTo(expected[i], org.assertj.core.api.Assertions.within(tolerance));
        }
    }

    static double[] toDouble(float[] f, int offset) {
        double[] d = new double[16];
        for (int i = 0; i < 16; i++) {
            d[i] = f[offset + i];
        }
        return d;
    }
}

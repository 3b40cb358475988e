package io.posekit.asset.fbx;

import static io.posekit.asset.fbx.FbxSceneFixture.assertInvalid;
import static io.posekit.asset.fbx.FbxSceneFixture.assertMatrix;
import static io.posekit.asset.fbx.FbxSceneFixture.failure;
import static io.posekit.asset.fbx.FbxSceneFixture.leaf;
import static io.posekit.asset.fbx.FbxSceneFixture.node;
import static io.posekit.asset.fbx.FbxSceneFixture.p;
import static io.posekit.asset.fbx.FbxSceneFixture.props;
import static io.posekit.asset.fbx.FbxSceneFixture.rows;
import static io.posekit.asset.fbx.FbxSceneFixture.vec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.Model;
import io.posekit.asset.ModelBuilder;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import io.posekit.clip.Clip;
import io.posekit.sampling.Pose;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The object graph and the scene built from it: names, connections, the Model hierarchy, property templates, global
 * settings, animation stacks as clips (evaluated end to end), malformed graphs, and an ASCII document through the
 * importer's real entry point.
 */
class FbxSceneTest {

    private static final long TPS = FbxScene.TICKS_PER_SECOND;

    @Test
    void objectNamesArePlainInBothContainers() {
        assertThat(FbxScene.plainName("Bone.001\0\1Model")).isEqualTo("Bone.001");
        assertThat(FbxScene.plainName("Model::Bone.001")).isEqualTo("Bone.001");
        assertThat(FbxScene.plainName("Model::a::b")).isEqualTo("a::b");
        assertThat(FbxScene.plainName("a::b\0\1Model")).isEqualTo("a::b");
        assertThat(FbxScene.plainName("plain")).isEqualTo("plain");
        ImportScene s = new FbxSceneFixture()
                .rawObject("Model", List.of(1L, "Model::ascii", "Null"), props())
                .rawObject("Model", List.of(2L, "binary\0\1Model", "Null"), props())
                .oo(1, 0).oo(2, 1)
                .importScene();
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("ascii", "binary");
    }

    @Test
    void modelsFormTheHierarchyTheirConnectionsDescribe() {
        ImportScene s = new FbxSceneFixture()
                .model(3, "hand", 2)
                .model(1, "hips", 0)
                .model(2, "arm", 1)
                .model(4, "head", 1)
                .object("NodeAttribute", 9, "hips", "LimbNode").oo(9, 1)
                .importScene();
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("hand", "hips", "arm", "head");
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(2, -1, 1, 1);
        assertThat(s.nodes()).extracting(ImportScene.Node::sourceIndex).containsExactly(0, 1, 2, 3);
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        assertThat(model.rig().nodeCount()).isEqualTo(4);
    }

    @Test
    void modelsWithoutAParentBecomeRootsAndExtraParentsAreIgnored() {
        ImportScene s = new FbxSceneFixture()
                .model(1, "a", "Null")
                .model(2, "b", 0)
                .model(3, "c", 2).oo(3, 1)
                .importScene();
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, -1, 1);
        assertThat(s.warnings()).contains("1 Model(s) are connected neither to the scene root nor to another Model; they"
                + " are made roots", "Model 'c' is connected to 2 parents; the first is used");
    }

    @Test
    void aCycleOfModelsIsInvalid() {
        assertInvalid(() -> new FbxSceneFixture().model(1, "a", 2).model(2, "b", 1).importScene(),
                "the Model hierarchy has a cycle through Model 'a'");
        assertInvalid(() -> new FbxSceneFixture().model(1, "a", 1).importScene(),
                "Model 'a' is connected to itself as its parent");
    }

    @Test
    void objectIdsMustBeUnique() {
        assertInvalid(() -> new FbxSceneFixture().model(5, "a", 0).object("Geometry", 5, "g", "Mesh").importScene(),
                "Objects: id 5 is used by two objects, Model 'a' and Geometry 'g'");
        assertInvalid(() -> new FbxSceneFixture().object("Model", 0, "zero", "Null").importScene(),
                "Objects: Model 'zero' has id 0, which is the scene root's");
    }

    @Test
    void connectionsToObjectsThatDoNotExistAreIgnored() {
        ImportScene s = new FbxSceneFixture().model(1, "a", 0).oo(1, 77).oo(88, 1).importScene();
        assertThat(s.nodes()).hasSize(1);
        assertThat(s.warnings()).contains("2 connection(s) name objects the file does not have; ignored");
        assertInvalid(() -> new FbxSceneFixture().top(node("Connections", List.of(), leaf("C", "OO", 1L))).importScene(),
                "Connections: connection 1 needs a type (\"OO\", \"OP\") and two ids");
        assertInvalid(() -> new FbxSceneFixture().model(1, "a", 0).op(1, 0, "x").top(node("Connections", List.of(),
                leaf("C", "OP", 1L, 0L))).importScene(), "Connections: connection 1 (OP 1 → 0) names no property");
    }

    @Test
    void templatesGiveTheDefaultsAnObjectDoesNotSet() {
        ImportScene s = new FbxSceneFixture()
                .modelTemplate(vec("Lcl Scaling", 2, 2, 2), vec("Lcl Translation", 9, 9, 9))
                .model(1, "a", 0, vec("Lcl Translation", 1, 0, 0))
                .importScene();
        ImportScene.Node a = s.nodes().getFirst();
        assertThat(a.translation()).containsExactly(1, 0, 0);
        assertThat(a.scale()).containsExactly(2, 2, 2);
    }

    @Test
    void malformedPropertiesAreInvalid() {
        assertInvalid(() -> new FbxSceneFixture().model(1, "n", 0, p("Lcl Translation", 1.0)).importScene(),
                "Model 'n': property 'Lcl Translation' has 1 value(s); 3 are needed");
        assertInvalid(() -> new FbxSceneFixture().model(1, "n", 0, p("Lcl Translation", 1.0, "x", 2.0)).importScene(),
                "Model 'n': property 'Lcl Translation' value 1 is not a number");
        assertInvalid(() -> new FbxSceneFixture().model(1, "n", 0, p("Lcl Scaling", 1.0, Double.NaN, 2.0)).importScene(),
                "Model 'n': property 'Lcl Scaling' is not finite (NaN)");
        assertInvalid(() -> new FbxSceneFixture().model(1, "n", 0, p("RotationOrder", 1.5)).importScene(),
                "Model 'n': property 'RotationOrder' is 1.5, not an integer");
    }

    @Test
    void globalSettingsAreReportedNotConverted() {
        ImportScene s = new FbxSceneFixture()
                .top(node("GlobalSettings", List.of(), leaf("Version", 1000), props(p("UpAxis", 2), p("UpAxisSign", -1),
                        p("FrontAxis", 1), p("FrontAxisSign", 1), p("CoordAxis", 0), p("CoordAxisSign", 1),
                        p("UnitScaleFactor", 100.0))))
                .model(1, "a", 0, vec("Lcl Translation", 1, 2, 3))
                .importScene();
        assertThat(s.warnings().getFirst()).isEqualTo("FBX GlobalSettings: UpAxis -Z, FrontAxis +Y, CoordAxis +X,"
                + " UnitScaleFactor 100 (1 unit = 100 cm); model space is the file's own, animated.glb and posed.glb convert"
                + " it to glTF's metres and Y-up");
        assertThat(s.nodes().getFirst().translation()).containsExactly(1, 2, 3);
        assertThat(new FbxSceneFixture().importScene().warnings().getFirst()).isEqualTo("FBX GlobalSettings: UpAxis +Y,"
                + " FrontAxis +Z, CoordAxis +X, UnitScaleFactor 1 (1 unit = 1 cm); model space is the file's own,"
                + " animated.glb and posed.glb convert it to glTF's metres and Y-up");
    }

    @Test
    void globalSettingsDeclareTheModelSpace() {
        ImportScene s = new FbxSceneFixture()
                .top(node("GlobalSettings", List.of(), leaf("Version", 1000), props(p("UpAxis", 2), p("UpAxisSign", 1),
                        p("FrontAxis", 1), p("FrontAxisSign", -1), p("CoordAxis", 0), p("CoordAxisSign", 1),
                        p("UnitScaleFactor", 2.54), p("OriginalUnitScaleFactor", 100.0))))
                .importScene();
        assertThat(s.space()).isEqualTo(new io.posekit.asset.ModelSpace(io.posekit.asset.ModelSpace.Axis.PLUS_X,
                io.posekit.asset.ModelSpace.Axis.PLUS_Z, io.posekit.asset.ModelSpace.Axis.MINUS_Y, 0.0254, 1));
        // no GlobalSettings: the FBX SDK's defaults, Y-up centimetres
        assertThat(new FbxSceneFixture().importScene().space()).isEqualTo(new io.posekit.asset.ModelSpace(
                io.posekit.asset.ModelSpace.Axis.PLUS_X, io.posekit.asset.ModelSpace.Axis.PLUS_Y,
                io.posekit.asset.ModelSpace.Axis.PLUS_Z, 0.01, 0.01));
        // axes that are not three different ones, a unit that is not positive: glTF's axes, 1 cm, each warned
        ImportScene bad = new FbxSceneFixture()
                .top(node("GlobalSettings", List.of(), leaf("Version", 1000), props(p("UpAxis", 1), p("FrontAxis", 1),
                        p("UnitScaleFactor", -3.0))))
                .importScene();
        assertThat(bad.space()).isEqualTo(new io.posekit.asset.ModelSpace(io.posekit.asset.ModelSpace.Axis.PLUS_X,
                io.posekit.asset.ModelSpace.Axis.PLUS_Y, io.posekit.asset.ModelSpace.Axis.PLUS_Z, 0.01, 0.01));
        assertThat(bad.warnings()).contains("GlobalSettings: UnitScaleFactor -3.0 is not a positive number; 1 (cm) is"
                + " used", "GlobalSettings: CoordAxis +X, UpAxis +Y, FrontAxis +Y are not three different axes; glTF's"
                + " (+X right, +Y up, +Z front) are used");
    }

    @Test
    void filesOlderThanFbx5AreUnsupported() {
        ImportException e = failure(() -> new FbxSceneFixture().version(4000).importScene());
        assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED);
        assertThat(e.getMessage()).isEqualTo("FBX version 4000 predates FBX 5.0, whose object model posekit reads (FBX"
                + " 5.x, 6.x and 7.x); re-export the file as FBX 6.1 or 7.x");
    }

    @Test
    void moreModelsThanTheNodeLimitIsTooLarge() {
        ImportException e = failure(() -> new FbxSceneFixture().model(1, "a", 0).model(2, "b", 0).model(3, "c", 0)
                .importScene(new ImportLimits(1L << 30, 2, 10, 1L << 30, 10)));
        assertThat(e.kind()).isEqualTo(ImportException.Kind.TOO_LARGE);
        assertThat(e.getMessage()).isEqualTo("the file has 3 Models; the limit is 2 nodes (posekit.limits.nodes)");
    }

    /** A curve record: linear keys at {@code seconds}. */
    private static FbxNode linearCurve(long id, double[] seconds, double[] values) {
        long[] ticks = new long[seconds.length];
        float[] v = new float[values.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = Math.round(seconds[i] * TPS);
            v[i] = (float) values[i];
        }
        return node("AnimationCurve", List.of(id, "\0\1AnimCurve", ""), leaf("Default", 0.0), leaf("KeyVer", 4008),
                leaf("KeyTime", (Object) ticks), leaf("KeyValueFloat", (Object) v),
                leaf("KeyAttrFlags", (Object) new int[] {FbxCurves.LINEAR}), leaf("KeyAttrDataFloat", (Object) new float[4]),
                leaf("KeyAttrRefCount", (Object) new int[] {seconds.length}));
    }

    /**
     * Model 'door' (rotation pivot (1, 0, 0), InheritType 1) whose Lcl Rotation z goes 0 → 90° linearly over file time
     * 1 s → 3 s; the stack 'Open' runs from LocalStart 1 s to LocalStop 3 s.
     */
    private static FbxSceneFixture animatedDoor() {
        FbxSceneFixture f = new FbxSceneFixture()
                .model(1, "door", 0, p("InheritType", 1), vec("RotationPivot", 1, 0, 0), vec("Lcl Rotation", 0, 0, 0))
                .object("AnimationStack", 50, "Open", "", props(p("LocalStart", TPS), p("LocalStop", 3 * TPS)))
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "R", "", props(p("d|X", 0.0), p("d|Y", 0.0), p("d|Z", 0.0)))
                .oo(52, 51).op(52, 1, "Lcl Rotation");
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), linearCurve(53, new double[] {1, 3},
                new double[] {0, 90}).children().toArray(FbxNode[]::new)).op(53, 52, "d|Z");
        return f;
    }

    @Test
    void anAnimationStackIsAClipOfTheWholeTransformChain() {
        ImportScene s = animatedDoor().importScene();
        assertThat(s.clips()).hasSize(1);
        ImportScene.Clip clip = s.clips().getFirst();
        assertThat(clip.name()).isEqualTo("Open");
        assertThat(clip.duration()).isEqualTo(2.0);
        assertThat(clip.tracks()).isEmpty();
        assertThat(clip.nodeTransforms()).hasSize(1);
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        Clip open = model.clips().getFirst();
        // clip time 1 s is file time 2 s: 45° about the pivot (1, 0, 0): Rp · Rz(45) · Rp⁻¹
        Pose pose = Pose.evaluate(model.rig(), open, 1.0);
        double c = Math.sqrt(0.5);
        double[] expected = rows(c, -c, 0, 1 - c, c, c, 0, -c, 0, 0, 1, 0, 0, 0, 0, 1);
        double[] actual = new double[16];
        for (int i = 0; i < 16; i++) {
            actual[i] = pose.modelMatrices()[i];
        }
        assertMatrix(actual, expected, 1e-6);
        // before the first key and after the last the end values hold
        Pose end = Pose.evaluate(model.rig(), open, 2.0);
        assertThat(end.local().rotations()).containsExactly(new float[] {0, 0, (float) c, (float) c}, within(1e-6f));
    }

    @Test
    void componentsWithoutACurveHoldTheCurveNodesValue() {
        FbxSceneFixture f = new FbxSceneFixture()
                .model(1, "n", 0, vec("Lcl Translation", 7, 7, 7))
                .object("AnimationStack", 50, "Move", "")
                .object("AnimationLayer", 51, "Base", "").oo(51, 50)
                .object("AnimationCurveNode", 52, "T", "", props(p("d|X", 0.0), p("d|Y", 5.0), p("d|Z", 6.0)))
                .oo(52, 51).op(52, 1, "Lcl Translation");
        f.rawObject("AnimationCurve", List.of(53L, "\0\1AnimCurve", ""), linearCurve(53, new double[] {0, 2},
                new double[] {0, 4}).children().toArray(FbxNode[]::new)).op(53, 52, "d|X");
        Model model = f.build();
        Clip move = model.clips().getFirst();
        // no LocalStop: the clip lasts until its last key
        assertThat(move.duration()).isEqualTo(2.0);
        Pose pose = Pose.evaluate(model.rig(), move, 1.0);
        assertThat(pose.local().translations()).containsExactly(new float[] {2, 5, 6}, within(1e-6f));
    }

    @Test
    void onlyTheFirstLayerIsUsedAndOtherPropertiesAreReported() {
        FbxSceneFixture f = animatedDoor()
                .object("AnimationLayer", 60, "Extra", "").oo(60, 50)
                .object("AnimationCurveNode", 61, "Visibility", "", props(p("d|Visibility", 1.0)))
                .oo(61, 51).op(61, 1, "Visibility");
        ImportScene s = f.importScene();
        assertThat(s.warnings()).contains(
                "AnimationStack 'Open' has 2 animation layers; only the first ('Base') is used (layers are not blended)",
                "AnimationStack 'Open': animated properties other than Lcl Translation/Rotation/Scaling of Models are not"
                        + " applied: Visibility (1)");
    }

    @Test
    void clipsAreNamedByTheirStacksAndTakesGiveAMissingSpan() {
        FbxSceneFixture f = new FbxSceneFixture()
                .object("AnimationStack", 50, "Walk", "")
                .object("AnimationStack", 51, "Walk", "")
                .top(node("Takes", List.of(), leaf("Current", "Walk"), node("Take", List.of("Walk"),
                        leaf("FileName", "Walk.tak"), leaf("LocalTime", TPS / 2, 2 * TPS))));
        ImportScene s = f.importScene();
        assertThat(s.clips()).extracting(ImportScene.Clip::name).containsExactly("Walk", "Walk_2");
        assertThat(s.clips().getFirst().duration()).isEqualTo(1.5);
        // the take starts at 0.5 s of scene time: clip time 0 is there
        assertThat(s.clips().getFirst().sceneStart()).isEqualTo(0.5);
    }

    @Test
    void aStacksLocalStartIsWhereItsClipStartsInSceneTime() {
        // Maya's spin take of maya_game_sausage: frames 20 to 40 at 24 fps, its keys from frame 20
        ImportScene s = new FbxSceneFixture()
                .object("AnimationStack", 50, "Spin", "", props(p("LocalStart", 20 * TPS / 24),
                        p("LocalStop", 40 * TPS / 24)))
                .importScene();
        assertThat(s.clips().getFirst().sceneStart()).isEqualTo(20.0 / 24);
        assertThat(s.clips().getFirst().duration()).isEqualTo(20.0 / 24);
        Clip built = ModelBuilder.build(AssetFormat.FBX, s).clips().getFirst();
        assertThat(built.sceneStart()).isEqualTo(20.0 / 24);
        assertThat(built.sceneEnd()).isEqualTo(40.0 / 24);
        // no span: the clip starts at scene time 0
        ImportScene none = new FbxSceneFixture().object("AnimationStack", 50, "Idle", "").importScene();
        assertThat(none.clips().getFirst().sceneStart()).isZero();
    }

    /** A skinned, animated triangle in FBX 7.4 ASCII as the SDK writes it. */
    static final String ASCII = """
            ; FBX 7.4.0 project file
            FBXHeaderExtension:  {
            \tFBXHeaderVersion: 1003
            \tFBXVersion: 7400
            }
            GlobalSettings:  {
            \tVersion: 1000
            \tProperties70:  {
            \t\tP: "UpAxis", "int", "Integer", "",1
            \t\tP: "UnitScaleFactor", "double", "Number", "",1
            \t}
            }
            Definitions:  {
            \tObjectType: "Model" {
            \t\tCount: 2
            \t\tPropertyTemplate: "FbxNode" {
            \t\t\tProperties70:  {
            \t\t\t\tP: "InheritType", "enum", "", "",1
            \t\t\t}
            \t\t}
            \t}
            }
            Objects:  {
            \tGeometry: 10, "Geometry::tri", "Mesh" {
            \t\tVertices: *9 {
            \t\t\ta: 0,0,0,1,0,0,0,1,0
            \t\t}
            \t\tPolygonVertexIndex: *3 {
            \t\t\ta: 0,1,-3
            \t\t}
            \t\tLayerElementNormal: 0 {
            \t\t\tVersion: 101
            \t\t\tMappingInformationType: "ByPolygonVertex"
            \t\t\tReferenceInformationType: "Direct"
            \t\t\tNormals: *9 {
            \t\t\t\ta: 0,0,1,0,0,1,0,0,1
            \t\t\t}
            \t\t}
            \t}
            \tModel: 1, "Model::tri", "Mesh" {
            \t\tVersion: 232
            \t\tProperties70:  {
            \t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",0,0,0
            \t\t}
            \t}
            \tModel: 2, "Model::Bone.001", "LimbNode" {
            \t\tVersion: 232
            \t\tProperties70:  {
            \t\t\tP: "PreRotation", "Vector3D", "Vector", "",0,0,90
            \t\t\tP: "RotationActive", "bool", "", "",1
            \t\t\tP: "Lcl Translation", "Lcl Translation", "", "A",1,0,0
            \t\t}
            \t}
            \tDeformer: 100, "Deformer::skin", "Skin" {
            \t\tVersion: 101
            \t}
            \tDeformer: 101, "SubDeformer::Bone.001", "Cluster" {
            \t\tVersion: 100
            \t\tIndexes: *3 {
            \t\t\ta: 0,1,2
            \t\t}
            \t\tWeights: *3 {
            \t\t\ta: 1,1,1
            \t\t}
            \t\tTransform: *16 {
            \t\t\ta: 0,-1,0,0,1,0,0,0,0,0,1,0,0,1,0,1
            \t\t}
            \t\tTransformLink: *16 {
            \t\t\ta: 0,1,0,0,-1,0,0,0,0,0,1,0,1,0,0,1
            \t\t}
            \t}
            \tAnimationStack: 50, "AnimStack::Spin", "" {
            \t\tProperties70:  {
            \t\t\tP: "LocalStop", "KTime", "Time", "",46186158000
            \t\t}
            \t}
            \tAnimationLayer: 51, "AnimLayer::Base", "" {
            \t}
            \tAnimationCurveNode: 52, "AnimCurveNode::R", "" {
            \t\tProperties70:  {
            \t\t\tP: "d|X", "Number", "", "A",0
            \t\t\tP: "d|Y", "Number", "", "A",0
            \t\t\tP: "d|Z", "Number", "", "A",0
            \t\t}
            \t}
            \tAnimationCurve: 53, "AnimCurve::", "" {
            \t\tDefault: 0
            \t\tKeyVer: 4008
            \t\tKeyTime: *2 {
            \t\t\ta: 0,46186158000
            \t\t}
            \t\tKeyValueFloat: *2 {
            \t\t\ta: 0,90
            \t\t}
            \t\tKeyAttrFlags: *1 {
            \t\t\ta: 24840
            \t\t}
            \t\tKeyAttrDataFloat: *4 {
            \t\t\ta: 0,0,218434821,0
            \t\t}
            \t\tKeyAttrRefCount: *1 {
            \t\t\ta: 2
            \t\t}
            \t}
            }
            Connections:  {
            \tC: "OO",1,0
            \tC: "OO",2,0
            \tC: "OO",10,1
            \tC: "OO",100,10
            \tC: "OO",101,100
            \tC: "OO",2,101
            \tC: "OO",51,50
            \tC: "OO",52,51
            \tC: "OP",52,2, "Lcl Rotation"
            \tC: "OP",53,52, "d|X"
            }
            """;

    @Test
    void anAsciiDocumentThroughTheImporter() {
        SourceFile main = new SourceFile("tri.fbx", ASCII.getBytes(StandardCharsets.UTF_8));
        ImportScene s = new FbxImporter().read(main, new SourceFiles(List.of(main)), ImportLimits.DEFAULT);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("tri", "Bone.001");
        // PreRotation 90° about Z (rotation active), translation (1, 0, 0): the bind TransformLink
        ImportScene.Node bone = s.nodes().get(1);
        float h = (float) Math.sqrt(0.5);
        assertThat(bone.rotation()).containsExactly(new float[] {0, 0, h, h}, within(1e-6f));
        assertThat(s.skins()).hasSize(1);
        assertThat(s.skins().getFirst().joints()).containsExactly(1);
        assertThat(s.meshes().getFirst().primitives().getFirst().vertexCount()).isEqualTo(3);
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        Clip spin = model.clips().getFirst();
        assertThat(spin.name()).isEqualTo("Spin");
        assertThat(spin.duration()).isEqualTo(1.0);
        // at the end: Rz(90) · Rx(90) (pre-rotation after the animated rotation)
        Pose pose = Pose.evaluate(model.rig(), spin, 1.0);
        double[] world = new double[16];
        for (int i = 0; i < 16; i++) {
            world[i] = pose.modelMatrices()[16 + i];
        }
        assertMatrix(world, rows(0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1), 1e-5);
        // the cubic auto keys (flat at both ends) pass through 45° half way
        Pose half = Pose.evaluate(model.rig(), spin, 0.5);
        double q = Math.toRadians(22.5);
        float[] r = half.local().rotations();
        // Rz(90) · Rx(45) as a quaternion: (sin 22.5° · (cos 45°, sin 45°, 0)…) computed from the product of halves
        double[] expected = {Math.sin(q) * h, Math.sin(q) * h, Math.cos(q) * h, Math.cos(q) * h};
        assertThat(new double[] {r[4], r[5], r[6], r[7]}).containsExactly(expected, within(1e-6));
    }
}

package io.posekit.asset.fbx;

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
import io.posekit.sampling.Pose;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FBX 6.x as 3ds Max 2009–2010, Maya and Blender's 6.1 exporters write it: objects and connections by name,
 * Properties60, geometry inside the Model, skins connected to the Model, animation in Takes with Key lists — read
 * through {@link FbxLegacy}'s rewrite into the 7.x object model.
 */
class FbxLegacyTest {

    /** A bone with a quad child, a skin on the quad, and a take moving the bone in X (linear) and Y (cubic, user). */
    private static final String MAX_2009_61 = """
            ; FBX 6.1.0 project file
            FBXHeaderExtension:  {
            	FBXHeaderVersion: 1003
            	FBXVersion: 6100
            }
            Objects:  {
            	Model: "Model::Bone", "Limb" {
            		Version: 232
            		Properties60:  {
            			Property: "Lcl Translation", "Lcl Translation", "A+",1,2,3
            			Property: "Lcl Rotation", "Lcl Rotation", "A+",0,0,0
            		}
            	}
            	Model: "Model::Quad", "Mesh" {
            		Version: 232
            		Properties60:  {
            			Property: "Lcl Translation", "Lcl Translation", "A+",10,0,0
            		}
            		Vertices: 0,0,0,1,0,0,1,1,0
            		,0,1,0
            		PolygonVertexIndex: 0,1,2,-4
            		LayerElementNormal: 0 {
            			MappingInformationType: "ByControlPoint"
            			ReferenceInformationType: "Direct"
            			Normals: 0,0,1,0,0,1,0,0,1,0,0,1
            		}
            	}
            	Deformer: "Deformer::Skin Quad", "Skin" {
            		Version: 100
            	}
            	Deformer: "SubDeformer::Cluster Quad Bone", "Cluster" {
            		Version: 100
            		Indexes: 0,1,2,3
            		Weights: 1,1,1,1
            		Transform: 1,0,0,0,0,1,0,0,0,0,1,0,-1,-2,-3,1
            		TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,1,2,3,1
            	}
            }
            Connections:  {
            	Connect: "OO", "Model::Bone", "Model::Scene"
            	Connect: "OO", "Model::Quad", "Model::Scene"
            	Connect: "OO", "Deformer::Skin Quad", "Model::Quad"
            	Connect: "OO", "SubDeformer::Cluster Quad Bone", "Deformer::Skin Quad"
            	Connect: "OO", "Model::Bone", "SubDeformer::Cluster Quad Bone"
            }
            Takes:  {
            	Current: "Walk"
            	Take: "Walk" {
            		LocalTime: 0,46186158000
            		ReferenceTime: 0,46186158000
            		Model: "Model::Bone" {
            			Version: 1.1
            			Channel: "Transform" {
            				Channel: "T" {
            					Channel: "X" {
            						Default: 1
            						KeyVer: 4005
            						KeyCount: 2
            						Key: 0,1,L,46186158000,3,L
            					}
            					Channel: "Y" {
            						Default: 2
            						KeyVer: 4005
            						KeyCount: 2
            						Key: 0,2,U,s,0,0,n,46186158000,4,U,a,n
            					}
            				}
            			}
            		}
            	}
            }
            """;

    private static ImportScene read(String text) {
        SourceFile f = new SourceFile("max2009.fbx", text.getBytes(StandardCharsets.UTF_8));
        return new FbxImporter().read(f, new SourceFiles(List.of(f)), ImportLimits.DEFAULT);
    }

    @Test
    void max2009Fbx61ObjectsConnectionsGeometrySkinAndTakesAreRead() {
        ImportScene s = read(MAX_2009_61);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Bone", "Quad");
        assertThat(s.nodes().get(0).translation()).containsExactly(1, 2, 3);
        assertThat(s.meshes()).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("Quad");
            assertThat(m.skin()).isZero();
            assertThat(m.primitives().getFirst().positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
        });
        assertThat(s.skins()).singleElement().satisfies(k -> assertThat(k.joints()).containsExactly(0));
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        assertThat(model.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Walk");
            assertThat(c.duration()).isEqualTo(1.0);
        });
        // X linear 1 → 3; Y cubic 2 → 4, a flat user slope leaving key 0 and an auto one into key 1 (the last key's
        // auto slope, flat: 6.x auto keys are clamp-progressive as 7.x writes them)
        float[] at0 = Pose.evaluate(model.rig(), model.clips().getFirst(), 0).local().translations();
        float[] atHalf = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.5).local().translations();
        int bone = model.rig().indexOf("Bone");
        assertThat(at0[3 * bone]).isEqualTo(1f);
        assertThat(at0[3 * bone + 1]).isEqualTo(2f);
        assertThat(atHalf[3 * bone]).isCloseTo(2f, within(1e-6f));
        // Hermite with p0 = 2, p1 = 4, m0 = m1 = 0 (Δ = 1): h00·2 + h01·4 at ½ = 1 + 2
        assertThat(atHalf[3 * bone + 1]).isCloseTo(3f, within(1e-5f));
        assertThat(atHalf[3 * bone + 2]).isEqualTo(3f);
    }

    /**
     * Binary 6.x files name objects {@code Bone\0\1Model} where ASCII writes {@code Model::Bone}, in objects,
     * connections, pose nodes and takes alike, the root as {@code Scene\0\1Model} (ufbx's
     * {@code maya_transformed_skin_6100_binary}): the same scene as the ASCII one, skin and take included.
     */
    @Test
    void binaryFbx6NamesAreTheAsciiNames() {
        FbxNode ascii = FbxReader.read(MAX_2009_61.getBytes(StandardCharsets.UTF_8), ImportLimits.DEFAULT,
                ImportLimits.DEFAULT.newBudget()).root();
        byte[] binary = FbxBinaryWriter.write(binaryNames(ascii), 6100);
        SourceFile f = new SourceFile("max2009.fbx", binary);
        ImportScene s = new FbxImporter().read(f, new SourceFiles(List.of(f)), ImportLimits.DEFAULT);
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Bone", "Quad");
        assertThat(s.skins()).singleElement().satisfies(k -> assertThat(k.joints()).containsExactly(0));
        assertThat(s.warnings()).noneMatch(w -> w.contains("connection") || w.contains("made roots"));
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        float[] atHalf = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.5).local().translations();
        assertThat(atHalf[3 * model.rig().indexOf("Bone")]).isCloseTo(2f, within(1e-6f));
        assertThat(FbxLegacy.canonical("Scene\0\1Model")).isEqualTo("Model::Scene");
        assertThat(FbxLegacy.canonical("Model::Bone")).isEqualTo("Model::Bone");
    }

    /** {@code node} with every {@code Class::name} string property written as binary files write it. */
    private static FbxNode binaryNames(FbxNode node) {
        List<Object> properties = new java.util.ArrayList<>();
        for (Object p : node.properties()) {
            int colons = p instanceof String text ? text.indexOf("::") : -1;
            properties.add(colons > 0 ? ((String) p).substring(colons + 2) + "\0\1" + ((String) p).substring(0, colons)
                    : p);
        }
        return new FbxNode(node.name(), properties, node.children().stream().map(FbxLegacyTest::binaryNames).toList());
    }

    /** Bone's Y at {@code t} seconds of the take with the Y channel's key list {@code keys}. */
    private static float boneYWithKeys(String keys, double t) {
        Model model = ModelBuilder.build(AssetFormat.FBX, read(MAX_2009_61.replace(
                "Key: 0,2,U,s,0,0,n,46186158000,4,U,a,n", "Key: " + keys)));
        float[] at = Pose.evaluate(model.rig(), model.clips().getFirst(), t).local().translations();
        return at[3 * model.rig().indexOf("Bone") + 1];
    }

    /**
     * 3ds Max's weighted cubic keys ({@code U,s,…,a,right,nextLeft}): the weights place the Bézier control points at
     * those fractions of the segment. With flat slopes, 0 → −168 over 1 s and weights ¼ and ¾ the control times are
     * 0.25 and 0.25 s, so at the curve parameter ½ the time is 0.75·½·½ + ⅛ = 0.3125 s and the value
     * −168·(3·½·¼ + ⅛) = −84 exactly.
     */
    @Test
    void max2009WeightedCubicKeysPlaceTheBezierControlPointsAtTheirWeights() {
        assertThat(boneYWithKeys("0,0,U,s,0,-0,a,0.25,0.75,46186158000,-168,U,s,0,0,r,0.99", 0.3125))
                .isCloseTo(-84f, within(1e-4f));
    }

    /**
     * The weights 3ds Max 2009 prints ({@code 0.333233326673508}, ufbx's {@code max2009_blob}) are used as printed,
     * not rounded to the 1/10000 units in which 7.x packs them: at ⅓ s of 0 → −168 the Bézier (its parameter solved by
     * bisection) is at −43.56053; rounded to 0.3332 the weights would give −43.56219, which turned the blob 0.0017°
     * too far and left its vertices 0.002 off 3ds Max's own export.
     */
    @Test
    void max2009KeyWeightsAreUsedUnrounded() {
        String keys = "0,0,U,s,0,-0,a,0.333233326673508,0.333233326673508,46186158000,-168,U,s,0,0,r,0.989998996257782";
        assertThat(boneYWithKeys(keys, 1.0 / 3)).isCloseTo(-43.56053f, within(2e-4f));
    }

    /** A TCB key's bias (its third number) survives the weights that follow it: {@code T,0,0,1,n} is bias 1. */
    @Test
    void aTcbKeysBiasIsNotOverwrittenByItsWeightMode() {
        FbxNode root = FbxReader.read(MAX_2009_61.replace("Key: 0,2,U,s,0,0,n,46186158000,4,U,a,n",
                "Key: 0,2,T,0,0,1,n,46186158000,4,T,0,0,1,n").getBytes(StandardCharsets.UTF_8), ImportLimits.DEFAULT,
                ImportLimits.DEFAULT.newBudget()).root();
        FbxNode upgraded = FbxLegacy.upgrade(root, 6100, ImportLimits.DEFAULT.newBudget(),
                new io.posekit.asset.ImportWarnings());
        List<FbxNode> curves = upgraded.child("Objects").children("AnimationCurve");
        FbxNode y = curves.stream().filter(c -> c.child("KeyValueFloat").doubles(0)[1] == 4).findFirst().orElseThrow();
        assertThat(y.child("KeyAttrDataFloat").doubles(0)).containsExactly(0, 0, 1, 0, 0, 0, 1, 0);
        assertThat(y.child(FbxCurves.EXACT_WEIGHTS).doubles(0)).containsExactly(1.0 / 3, 1.0 / 3, 1.0 / 3, 1.0 / 3);
    }

    @Test
    void aKeyListCutInsideAKeyIsAClearError() {
        String cut = MAX_2009_61.replace("Key: 0,1,L,46186158000,3,L", "Key: 0,1,L,46186158000,3");
        assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(ImportException.class, () -> read(cut)))
                .hasMessage("FBX 6.x channel 'Bone' TX: its Key list ends inside a key (token 3 of 5)");
    }

    @Test
    void binaryFbx6KeyModeLettersAreKeptAsLetters() {
        FbxNode root = FbxBinaryWriter.root(FbxBinaryWriter.leaf("Key", 0L, 1.5, Boolean.TRUE));
        byte[] file = FbxBinaryWriter.write(root, 6100);
        // the boolean true written as C 0x01; turn it into the letter 'U' as FBX 6.x writers store key modes
        int at = indexOf(file, new byte[] {'C', 1});
        file[at + 1] = 'U';
        FbxReader.Document d = FbxContainerTestSupport.read(file);
        assertThat(d.root().child("Key").properties()).containsExactly(0L, 1.5, "U");
    }

    private static int indexOf(byte[] b, byte[] what) {
        for (int i = 0; i + what.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + what.length, what, 0, what.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}

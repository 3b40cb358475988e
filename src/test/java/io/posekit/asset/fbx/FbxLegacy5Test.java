package io.posekit.asset.fbx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * FBX 5.x as 3ds Max 7 (5000) and the FBX SDK of 2008 (5800) write it: top-level {@code Model}s with
 * {@code Children} lists, rest transforms as channel defaults (in the model and in the current take), geometry and
 * materials inside the model, skins as {@code Link}s — read through {@link FbxLegacy5}'s rewrite into the 6.x shape.
 */
class FbxLegacy5Test {

    /**
     * A root turned −90° about X (Z-up to Y-up, as 3ds Max 7's {@code Fbx_Root}), under it a bone and a quad skinned
     * to it with one link; the take places the bone at (1, 2, 3) and moves it in X linearly 1 → 3 over one second.
     */
    private static final String MAX_5800 = """
            ; FBX 5.8.0 project file
            FBXHeaderExtension:  {
            	FBXHeaderVersion: 1003
            	FBXVersion: 5800
            }
            Model: "Model::Fbx_Root" {
            	Type: "Null"
            	Channel: "Transform" {
            		Channel: "R" {
            			Channel: "X" {
            				Default: -90
            			}
            		}
            	}
            	Children: "Model::Bone", "Model::Quad"
            }
            Model: "Model::Bone" {
            	Type: "LimbNode"
            	TypeFlags: "Skeleton"
            }
            Model: "Model::Quad" {
            	Material: "Material::Red" {
            		ShadingModel: "phong"
            		Diffuse: 1,0,0
            		Emissive: 0,0,0
            		Alpha: 1
            	}
            	Link: "Model::Bone" {
            		Indexes: 0,1,2,3
            		Weights: 1,1,1,1
            		Transform: 1,0,0,0,0,1,0,0,0,0,1,0,-1,-2,-3,1
            		TransformLink: 1,0,0,0,0,1,0,0,0,0,1,0,1,2,3,1
            	}
            	Vertices: 0,0,0,1,0,0,1,1,0
            	,0,1,0
            	Normals: 0,0,1,0,0,1,0,0,1,0,0,1
            	MaterialAssignation: "AllSame"
            	Materials: 0
            	PolygonVertexIndex: 0,1,2,-4
            	GeometryUVInfo:  {
            		MappingInformationType: "ByPolygon"
            		TextureUV: 0,0,1,0,1,1,0,1
            		TextureUVVerticeIndex: 0,1,2,3
            	}
            }
            Takes:  {
            	Current: "Walk"
            	Take: "Walk" {
            		LocalTime: 0,46186158000
            		ReferenceTime: 0,46186158000
            		Model: "Model::Bone" {
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
            					}
            					Channel: "Z" {
            						Default: 3
            					}
            				}
            			}
            		}
            	}
            }
            """;

    private static ImportScene read(byte[] bytes) {
        SourceFile f = new SourceFile("max7.fbx", bytes);
        return new FbxImporter().read(f, new SourceFiles(List.of(f)), ImportLimits.DEFAULT);
    }

    @Test
    void fbx5800ModelsChildrenTransformsGeometryMaterialSkinAndTakeAreRead() {
        assertScene(read(MAX_5800.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * 3ds Max 7's binary files write 3000 in the binary header and 5000 in {@code FBXHeaderExtension}, and bare
     * model names ({@code Bone}, not {@code Model::Bone}) everywhere: the same scene.
     */
    @Test
    void binaryFbx5000WithAHeaderOf3000AndBareNamesIsTheSameScene() {
        FbxNode ascii = FbxReader.read(MAX_5800.replace("FBXVersion: 5800", "FBXVersion: 5000")
                .getBytes(StandardCharsets.UTF_8), ImportLimits.DEFAULT, ImportLimits.DEFAULT.newBudget()).root();
        byte[] binary = FbxBinaryWriter.write(bareModelNames(ascii), 3000);
        assertScene(read(binary));
        assertThat(FbxLegacy5.modelName("Bone")).isEqualTo("Model::Bone");
        assertThat(FbxLegacy5.modelName("Model::Bone")).isEqualTo("Model::Bone");
    }

    private static void assertScene(ImportScene s) {
        assertThat(s.nodes()).extracting(ImportScene.Node::name).containsExactly("Fbx_Root", "Bone", "Quad");
        assertThat(s.nodes()).extracting(ImportScene.Node::parent).containsExactly(-1, 0, 0);
        float h = (float) Math.sqrt(0.5);
        assertThat(s.nodes().get(0).rotation()).containsExactly(new float[] {-h, 0, 0, h}, within(1e-6f));
        assertThat(s.nodes().get(1).translation()).containsExactly(1, 2, 3);
        assertThat(s.nodes().get(2).translation()).containsExactly(0, 0, 0);
        assertThat(s.meshes()).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("Quad");
            assertThat(m.skin()).isZero();
            var p = m.primitives().getFirst();
            assertThat(p.positions()).containsExactly(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
            assertThat(p.normals()).containsExactly(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1);
            assertThat(p.material().name()).isEqualTo("Red");
            assertThat(p.material().baseColorFactor()).containsExactly(1, 0, 0, 1);
        });
        assertThat(s.skins()).singleElement().satisfies(k -> assertThat(k.joints()).containsExactly(1));
        Model model = ModelBuilder.build(AssetFormat.FBX, s);
        assertThat(model.clips()).singleElement().satisfies(c -> {
            assertThat(c.name()).isEqualTo("Walk");
            assertThat(c.duration()).isEqualTo(1.0);
        });
        int bone = model.rig().indexOf("Bone");
        float[] atHalf = Pose.evaluate(model.rig(), model.clips().getFirst(), 0.5).local().translations();
        assertThat(atHalf[3 * bone]).isCloseTo(2f, within(1e-6f));
        assertThat(atHalf[3 * bone + 1]).isEqualTo(2f);
        assertThat(atHalf[3 * bone + 2]).isEqualTo(3f);
    }

    /** {@code node} with {@code Model::name} and {@code Material::name} strings written bare, as 3ds Max 7 does. */
    private static FbxNode bareModelNames(FbxNode node) {
        List<Object> properties = new ArrayList<>();
        for (Object p : node.properties()) {
            properties.add(p instanceof String text && text.startsWith("Model::") ? text.substring(7) : p);
        }
        return new FbxNode(node.name(), properties, node.children().stream().map(FbxLegacy5Test::bareModelNames)
                .toList());
    }

    @Test
    void fbx3000WithoutALaterFbxVersionIsRefusedWithTheReason() {
        String fbx3 = MAX_5800.replace("FBXVersion: 5800", "FBXVersion: 3000");
        assertThat(catchThrowableOfType(ImportException.class, () -> read(fbx3.getBytes(StandardCharsets.UTF_8))))
                .satisfies(e -> assertThat(e.kind()).isEqualTo(ImportException.Kind.UNSUPPORTED))
                .hasMessage("FBX version 3000 predates FBX 5.0, whose object model posekit reads (FBX 5.x, 6.x and"
                        + " 7.x); re-export the file as FBX 6.1 or 7.x");
    }

    @Test
    void unreadableUvMappingIsAWarningNotARefusal() {
        ImportScene s = read(MAX_5800.replace("MappingInformationType: \"ByPolygon\"",
                "MappingInformationType: \"ByVertice\"").getBytes(StandardCharsets.UTF_8));
        assertThat(s.meshes()).hasSize(1);
        assertThat(s.warnings()).contains("FBX 5.x model 'Quad': texture coordinates mapped 'ByVertice' are not read");
    }
}

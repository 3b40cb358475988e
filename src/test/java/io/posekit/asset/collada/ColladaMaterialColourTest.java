package io.posekit.asset.collada;

import static io.posekit.asset.collada.ColladaTestSupport.importDae;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.posekit.skinning.Material;
import org.junit.jupiter.api.Test;

/**
 * COLLADA material colours in the space of the tool that wrote them, on a tiny document written here: Blender's
 * exporter ({@code <authoring_tool>Blender 3.4.1</authoring_tool>}) writes linear values, every other tool's are read
 * as sRGB (three.js's reading of every file).
 */
class ColladaMaterialColourTest {

    /** A triangle with a phong material of diffuse 0.5 0.25 0.8 and emission 0.2 0.4 0.6, by {@code tool}. */
    static String dae(String tool) {
        return """
                <?xml version="1.0" encoding="utf-8"?>
                <COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
                  <asset>%s<up_axis>Y_UP</up_axis></asset>
                  <library_effects>
                    <effect id="paint-fx"><profile_COMMON><technique sid="common"><phong>
                      <emission><color sid="emission">0.2 0.4 0.6 1</color></emission>
                      <diffuse><color sid="diffuse">0.5 0.25 0.8 1</color></diffuse>
                    </phong></technique></profile_COMMON></effect>
                  </library_effects>
                  <library_materials>
                    <material id="paint-material" name="paint"><instance_effect url="#paint-fx"/></material>
                  </library_materials>
                  <library_geometries>
                    <geometry id="tri" name="tri"><mesh>
                      <source id="tri-p"><float_array id="tri-pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
                        <technique_common><accessor source="#tri-pa" count="3" stride="3">
                          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
                        </accessor></technique_common></source>
                      <vertices id="tri-v"><input semantic="POSITION" source="#tri-p"/></vertices>
                      <triangles material="paint-material" count="1">
                        <input semantic="VERTEX" source="#tri-v" offset="0"/><p>0 1 2</p></triangles>
                    </mesh></geometry>
                  </library_geometries>
                  <library_visual_scenes><visual_scene id="s">
                    <node id="n" name="n"><instance_geometry url="#tri"><bind_material><technique_common>
                      <instance_material symbol="paint-material" target="#paint-material"/>
                    </technique_common></bind_material></instance_geometry></node>
                  </visual_scene></library_visual_scenes>
                  <scene><instance_visual_scene url="#s"/></scene>
                </COLLADA>
                """.formatted(tool == null ? "" : "<contributor><author>someone</author><authoring_tool>" + tool
                        + "</authoring_tool></contributor>");
    }

    static Material material(String tool) {
        return importDae(dae(tool)).meshes().getFirst().primitives().getFirst().material();
    }

    @Test
    void blendersColoursAreLinear() {
        for (String blender : new String[] {"Blender 3.4.1", "Blender 2.79.0 commit date:2018-03-22, hash:f4dc9f9d68b"}) {
            Material m = material(blender);
            assertThat(m.baseColorFactor()).as(blender).containsExactly(0.5f, 0.25f, 0.8f, 1);
            assertThat(m.emissiveFactor()).as(blender).containsExactly(0.2f, 0.4f, 0.6f);
        }
    }

    @Test
    void otherToolsColoursAreSrgb() {
        for (String other : new String[] {"OpenCOLLADA for 3ds Max;  Version: 1.6", "Maya2018 | ColladaMaya v3.05B",
            null}) {
            Material m = material(other);
            assertThat(m.baseColorFactor()).as(other).containsExactly(new float[] {0.21404114f, 0.050876088f,
                0.60382736f, 1}, within(1e-7f));
            assertThat(m.emissiveFactor()).as(other).containsExactly(new float[] {0.033104766f, 0.13286832f,
                0.31854677f}, within(1e-7f));
        }
    }
}

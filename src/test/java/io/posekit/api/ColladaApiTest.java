package io.posekit.api;

import static io.posekit.api.AssetApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * COLLADA through the same endpoints as glTF: a Z-up document with a two-joint skin whose child joint rotates
 * 0° → 90° about (local) Z over one second (a <rotate> ANGLE channel, LINEAR).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "posekit.store.dir=target/test-stores/${random.uuid}")
class ColladaApiTest {

    static final String DAE = """
            <?xml version="1.0" encoding="utf-8"?>
            <COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
              <asset><unit meter="1"/><up_axis>Z_UP</up_axis></asset>
              <library_geometries>
                <geometry id="tri" name="Tri"><mesh>
                  <source id="tri-pos"><float_array id="tri-pos-a" count="9">0 0 0  1 0 1  0 0 2</float_array>
                    <technique_common><accessor source="#tri-pos-a" count="3" stride="3">
                      <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
                    </accessor></technique_common></source>
                  <vertices id="tri-v"><input semantic="POSITION" source="#tri-pos"/></vertices>
                  <triangles count="1"><input semantic="VERTEX" source="#tri-v" offset="0"/><p>0 1 2</p></triangles>
                </mesh></geometry>
              </library_geometries>
              <library_controllers>
                <controller id="ctrl" name="TriSkin"><skin source="#tri">
                  <bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>
                  <source id="ctrl-j"><Name_array id="ctrl-j-a" count="2">root tip</Name_array>
                    <technique_common><accessor source="#ctrl-j-a" count="2"><param name="JOINT" type="name"/></accessor></technique_common></source>
                  <source id="ctrl-ibm"><float_array id="ctrl-ibm-a" count="32">
                      1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1
                      1 0 0 0  0 1 0 0  0 0 1 -1  0 0 0 1</float_array>
                    <technique_common><accessor source="#ctrl-ibm-a" count="2" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
                  <source id="ctrl-w"><float_array id="ctrl-w-a" count="2">1 1</float_array>
                    <technique_common><accessor source="#ctrl-w-a" count="2"><param name="WEIGHT" type="float"/></accessor></technique_common></source>
                  <joints><input semantic="JOINT" source="#ctrl-j"/><input semantic="INV_BIND_MATRIX" source="#ctrl-ibm"/></joints>
                  <vertex_weights count="3">
                    <input semantic="JOINT" source="#ctrl-j" offset="0"/><input semantic="WEIGHT" source="#ctrl-w" offset="1"/>
                    <vcount>1 1 1</vcount><v>0 0 1 1 1 1</v>
                  </vertex_weights>
                </skin></controller>
              </library_controllers>
              <library_animations>
                <animation id="spin">
                  <source id="spin-in"><float_array id="spin-in-a" count="2">0 1</float_array>
                    <technique_common><accessor source="#spin-in-a" count="2"><param name="TIME" type="float"/></accessor></technique_common></source>
                  <source id="spin-out"><float_array id="spin-out-a" count="2">0 90</float_array>
                    <technique_common><accessor source="#spin-out-a" count="2"><param name="ANGLE" type="float"/></accessor></technique_common></source>
                  <sampler id="spin-s"><input semantic="INPUT" source="#spin-in"/><input semantic="OUTPUT" source="#spin-out"/></sampler>
                  <channel source="#spin-s" target="tip/rz.ANGLE"/>
                </animation>
              </library_animations>
              <library_visual_scenes>
                <visual_scene id="scene" name="Scene">
                  <node id="rootJoint" sid="root" name="Root Joint" type="JOINT">
                    <node id="tip" sid="tip" name="Tip Joint" type="JOINT">
                      <translate sid="t">0 0 1</translate><rotate sid="rz">0 0 1 0</rotate>
                    </node>
                  </node>
                  <node id="mesh" name="Mesh"><instance_controller url="#ctrl"><skeleton>#rootJoint</skeleton></instance_controller></node>
                </visual_scene>
              </library_visual_scenes>
              <scene><instance_visual_scene url="#scene"/></scene>
            </COLLADA>
            """;

    @LocalServerPort
    int port;

    @Test
    void aColladaFileWorksThroughEveryEndpoint() throws IOException {
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response r = client.uploadRaw(DAE.getBytes(StandardCharsets.UTF_8), "model/vnd.collada+xml", null);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        JsonNode s = r.json();
        assertThat(s.get("format").asString()).isEqualTo("collada");
        assertThat(s.get("name").asString()).isEqualTo("asset.dae");
        // the visual scene's own node carries Z-up → Y-up; joints are named by sid
        assertThat(s.get("nodes").toString()).isEqualTo("[{\"index\":0,\"name\":\"Scene\",\"parent\":-1,\"sourceIndex\":null},"
                + "{\"index\":1,\"name\":\"root\",\"parent\":0,\"sourceIndex\":0},"
                + "{\"index\":2,\"name\":\"tip\",\"parent\":1,\"sourceIndex\":1},"
                + "{\"index\":3,\"name\":\"Mesh\",\"parent\":0,\"sourceIndex\":2}]");
        assertThat(s.get("skins").toString()).isEqualTo("[{\"index\":0,\"name\":\"TriSkin\",\"joints\":[1,2]}]");
        assertThat(s.get("clips").toString()).isEqualTo("[{\"index\":0,\"name\":\"default\",\"duration\":1.0,\"channels\":1,\"sceneStart\":0.0,\"sceneEnd\":1.0}]");
        String base = "/api/v1/assets/" + s.get("id").asString();

        // at 0.5 s the tip has turned 45° about its (Z-up) z axis; in Y-up model space that axis is +Y.
        // skinning(tip) = Rx(−90°) · T(0,0,1) · Rz(45°) · T(0,0,−1): vertex (1,0,1) → (cos45, 1, −sin45)·… in Y-up
        JsonNode skinned = client.get(base + "/meshes/0/skinned?clip=default&time=0.5").json().get("primitives").get(0);
        JsonNode p = skinned.get("positions");
        double c = Math.cos(Math.PI / 4);
        // Z-up (x, y, z) maps to Y-up (x, z, −y); vertex 1 (1,0,1) bound to tip: Rz(45°)·(1,0,0) + (0,0,1) = (c, c, 1)
        assertThat(p.get(3).asDouble()).isCloseTo(c, within(1e-6));
        assertThat(p.get(4).asDouble()).isCloseTo(1, within(1e-6));
        assertThat(p.get(5).asDouble()).isCloseTo(-c, within(1e-6));
        // vertex 0 (0,0,0) bound to root stays at the origin
        assertThat(p.get(0).asDouble()).isCloseTo(0, within(1e-6));

        JsonNode m = client.get(base + "/skins/0/matrices?clip=default&time=0.5").json();
        assertThat(m.get("joints").toString()).isEqualTo("[\"root\",\"tip\"]");
        JsonNode local = client.get(base + "/pose?clip=default&time=0.5").json().get("nodes");
        double h = Math.sin(Math.PI / 8);
        assertThat(local.get(2).get("rotation").get(2).asDouble()).isCloseTo(h, within(1e-6));
        assertThat(local.get(0).get("rotation").get(0).asDouble()).isCloseTo(-Math.sqrt(0.5), within(1e-6));

        // the same document in a zip is the same model (a different upload, so a different id)
        PosekitClient.Response zipped = client.uploadRaw(zip("model/tri.dae", DAE), "application/zip", null);
        assertThat(zipped.status()).as(zipped.toString()).isEqualTo(201);
        assertThat(zipped.json().get("name").asString()).isEqualTo("tri.dae");
        assertThat(zipped.json().get("nodes")).isEqualTo(s.get("nodes"));
    }

    /**
     * A clip that starts at 0.25 s of the document's scene time: the summary says where it lies there, and sampling
     * counts from its start (clip time 0.5 is scene time 0.75, two thirds of the way to 90°).
     */
    @Test
    void theSummarySaysWhereAClipLiesInSceneTime() {
        String dae = lateClip();
        PosekitClient client = new PosekitClient(port);
        PosekitClient.Response r = client.uploadRaw(dae.getBytes(StandardCharsets.UTF_8), "model/vnd.collada+xml", null);
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        assertThat(r.json().get("clips").toString()).isEqualTo("[{\"index\":0,\"name\":\"late\",\"duration\":0.75,"
                + "\"channels\":1,\"sceneStart\":0.25,\"sceneEnd\":1.0}]");
    }

    /**
     * {@link #DAE} with its spin keyed at 0.25 s and 1 s of scene time (0° → 90°) and a clip {@code late} from 0.25 s
     * to 1 s: clip time {@code t} is scene time {@code 0.25 + t}, the tip at {@code 120° × t}.
     */
    static String lateClip() {
        return DAE.replace("count=\"2\">0 1</float_array>", "count=\"2\">0.25 1</float_array>")
                .replace("</library_animations>", "</library_animations><library_animation_clips><animation_clip"
                        + " name=\"late\" start=\"0.25\" end=\"1\"><instance_animation url=\"#spin\"/>"
                        + "</animation_clip></library_animation_clips>");
    }

    @Test
    void hostileXmlIsRejectedWithoutReadingFiles() {
        PosekitClient client = new PosekitClient(port);
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><COLLADA>&x;</COLLADA>";
        PosekitClient.Response r = client.upload("evil.dae", xxe.getBytes(StandardCharsets.UTF_8));
        assertProblem(r, 422, null);
        assertThat(r.json().get("detail").asString()).contains("DTDs and entity declarations are not allowed").doesNotContain("root:");
    }

    private static byte[] zip(String name, String content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            z.putNextEntry(new ZipEntry(name));
            z.write(content.getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        return out.toByteArray();
    }
}

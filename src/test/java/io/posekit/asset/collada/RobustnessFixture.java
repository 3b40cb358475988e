package io.posekit.asset.collada;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.posekit.asset.AssetFormat;
import io.posekit.asset.ImportException;
import io.posekit.asset.ImportScene;
import io.posekit.asset.ModelBuilder;

/**
 * A small document exercising every decoder (skinned polylist, matrix and element animations, clip) for
 * corruption tests, and the check that an import either works (and builds) or fails with a precise
 * ImportException, never another exception that AssetImporters could only report as an internal error.
 */
public final class RobustnessFixture {

    private RobustnessFixture() {
    }

    /** The document: a Z-up, half-metre skinned quad with matrix and Bézier animations gathered in one clip. */
    public static byte[] document() {
        String skin = "<controller id=\"c\" name=\"Skin\"><skin source=\"#g\">"
                + "<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>"
                + DaeBuilder.names("c-j", "Name_array", "JOINT", "b0", "b1")
                + DaeBuilder.matrices("c-ibm", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                        1, 0, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 1)
                + DaeBuilder.floats("c-w", "W", 1, 0.5)
                + "<joints><input semantic=\"JOINT\" source=\"#c-j\"/><input semantic=\"INV_BIND_MATRIX\" source=\"#c-ibm\"/></joints>"
                + "<vertex_weights count=\"4\"><input semantic=\"JOINT\" source=\"#c-j\" offset=\"0\"/>"
                + "<input semantic=\"WEIGHT\" source=\"#c-w\" offset=\"1\"/><vcount>1 2 1 1</vcount>"
                + "<v>0 0 0 1 1 1 1 0 1 0</v></vertex_weights></skin></controller>";
        return new DaeBuilder().upAxis("Z_UP").unit("0.5")
                .geometry("g", "Quad", DaeBuilder.quadMesh("g"))
                .controller(skin)
                .node("<node id=\"arm\"><translate sid=\"t\">0 0 0</translate><rotate sid=\"r\">0 0 1 0</rotate>"
                        + "<node id=\"b0\" sid=\"b0\" type=\"JOINT\"><matrix sid=\"m\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</matrix>"
                        + "<node id=\"b1\" sid=\"b1\" type=\"JOINT\"><translate>0 1 0</translate></node></node></node>")
                .node("<node id=\"mesh\"><instance_controller url=\"#c\"><skeleton>#b0</skeleton></instance_controller></node>")
                .animation(DaeBuilder.linear("m", "b0/m", new double[] {0, 1}, 16, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                        0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
                .animation(DaeBuilder.animation("r", "arm/r.ANGLE", new double[] {0, 1}, 1, new double[] {0, 90},
                        DaeBuilder.repeat("BEZIER", 2), DaeBuilder.floats("r-in", "XY", 0, 0, 0.6, 90),
                        DaeBuilder.floats("r-out", "XY", 0.4, 0, 1, 90)))
                .clip("<animation_clip name=\"all\" start=\"0\" end=\"1\"><instance_animation url=\"#m\"/>"
                        + "<instance_animation url=\"#r\"/></animation_clip>")
                .toBytes();
    }

    /** Imports {@code bytes}; true when it failed with a proper ImportException (the test fails on anything else). */
    static boolean importsOrFailsCleanly(byte[] bytes, String context) {
        try {
            ImportScene scene = ColladaTestSupport.importBytes(bytes);
            ModelBuilder.build(AssetFormat.COLLADA, scene);
            return false;
        } catch (ImportException e) {
            assertThat(e.getMessage()).as(context).doesNotStartWith("internal error").isNotBlank();
            return true;
        } catch (Throwable t) {
            fail(context + ": " + t, t);
            return true;
        }
    }
}

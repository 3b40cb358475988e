package io.posekit.asset.fbx;

import io.posekit.asset.ColourSpace;
import java.util.Arrays;

/**
 * The tool that wrote an FBX file, as ufbx detects it ({@code ufbx_exporter}): from the document's {@code Creator}
 * strings, the top-level record first (where Blender's FBX 6.1 exporter names itself, "Blender version 2.79 (sub 0)",
 * beside the SDK build its header copies), then the {@code FBXHeaderExtension}'s. Only what changes how the file is
 * read is told apart.
 */
enum FbxExporter {

    /**
     * Blender's exporters: "Blender (stable FBX IO) - 3.4.1 - 4.37.1" (binary 7.x) and "Blender version 2.79 (sub 0)"
     * (ASCII 6.1). Material colours are written as Blender holds them, linear: a Principled BSDF's Base Color 0.8,
     * 0.1, 0.1 becomes {@code DiffuseColor} 0.8, 0.1, 0.1, the same numbers its glTF exporter writes as the (linear)
     * {@code baseColorFactor}, and Blender's FBX importer reads them back unconverted.
     */
    BLENDER,
    /** Autodesk's FBX SDK ("FBX SDK/FBX Plugins version 2020.3", "… build 20070228"): Maya, 3ds Max, MotionBuilder. */
    FBX_SDK,
    /** Any other or none. */
    UNKNOWN;

    /**
     * The space this exporter's material colours are in: linear for Blender; sRGB for every other, as three.js's
     * FBXLoader reads every file (the colour swatches of Maya and 3ds Max are display-referred values, and Unity's
     * FBX importer treats them as sRGB too, its {@code useSRGBMaterialColor} default).
     */
    ColourSpace colours() {
        return this == BLENDER ? ColourSpace.LINEAR : ColourSpace.SRGB;
    }

    /** The exporter of the document whose root is {@code root}. */
    static FbxExporter of(FbxNode root) {
        FbxNode header = root.child("FBXHeaderExtension");
        for (FbxNode creator : Arrays.asList(root.child("Creator"), header == null ? null : header.child("Creator"))) {
            if (creator == null || creator.properties().isEmpty() || !(creator.property(0) instanceof String s)) {
                continue;
            }
            if (s.startsWith("Blender (stable FBX IO)") || s.startsWith("Blender version")) {
                return BLENDER;
            }
            if (s.startsWith("FBX SDK/FBX Plugins")) {
                return FBX_SDK;
            }
        }
        return UNKNOWN;
    }
}

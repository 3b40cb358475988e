package io.posekit.asset.md5;

import io.posekit.asset.ImportLimits;
import io.posekit.asset.ImportScene;
import io.posekit.asset.SourceFile;
import io.posekit.asset.SourceFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** MD5 test files as strings, and helpers to import them. */
public final class Md5Fixtures {

    private Md5Fixtures() {
    }

    /** √½ written the way MD5 exporters do. */
    public static final String S = "0.7071067812";

    /**
     * Two joints: {@code root} at the origin (orientation 0 0 0: w = −1, the identity) and {@code arm} at (1, 0, 0)
     * rotated +90° about z (stored (0, 0, −√½): w = −√½, so q = −(0, 0, √½, √½)). One vertex with two weights:
     * 0.25 × root·(0, 2, 0) + 0.75 × arm·(1, 0, 0) = 0.25·(0, 2, 0) + 0.75·(1, 1, 0) = (0.75, 1.25, 0).
     */
    public static final String MESH = """
            MD5Version 10
            commandline "mesh models/test.ma"   // a comment

            numJoints 2
            numMeshes 1

            joints {
            \t"root"\t-1 ( 0 0 0 ) ( 0 0 0 )\t\t// origin
            \t"arm"\t0 ( 1 0 0 ) ( 0 0 -%s )
            }

            mesh {
            \t// meshes: test
            \tshader "models/skin"

            \tnumverts 3
            \tvert 0 ( 0 0 ) 0 2
            \tvert 1 ( 1 0 ) 2 1
            \tvert 2 ( 0 1 ) 3 1

            \tnumtris 1
            \ttri 0 0 1 2

            \tnumweights 4
            \tweight 0 0 0.25 ( 0 2 0 )
            \tweight 1 1 0.75 ( 1 0 0 )
            \tweight 2 0 1 ( 4 0 0 )
            \tweight 3 1 1 ( 0 0 5 )
            }
            """.formatted(S);

    /**
     * Three frames at 24 fps. {@code root} is not animated (flags 0); {@code arm} has flags 37 = Tx (1) + Tz (4) + Qz
     * (32), read from components 0, 1, 2 of each frame; Ty, Qx, Qy keep the baseframe's values.
     */
    public static final String ANIM = """
            MD5Version 10
            commandline "anim models/walk.ma"

            numFrames 3
            numJoints 2
            frameRate 24
            numAnimatedComponents 3

            hierarchy {
            \t"root"\t-1 0 0\t// (no components)
            \t"arm"\t0 37 0\t// root ( Tx Tz Qz )
            }

            bounds {
            \t( -1 -1 -1 ) ( 1 1 1 )
            \t( -1 -1 -1 ) ( 1 1 1 )
            \t( -1 -1 -1 ) ( 1 1 1 )
            }

            baseframe {
            \t( 0 0 0 ) ( 0 0 0 )
            \t( 1 0.5 0 ) ( 0.1 0 -%s )
            }

            frame 0 {
            \t1 0 -%s
            }

            frame 1 {
            \t2 0.5 0
            }

            frame 2 {
            \t3 1 -1
            }
            """.formatted(S, S);

    static SourceFile file(String name, String text) {
        return new SourceFile(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Imports {@code main} uploaded with {@code others}. */
    static ImportScene importFiles(ImportLimits limits, SourceFile main, SourceFile... others) {
        List<SourceFile> all = new ArrayList<>();
        all.add(main);
        all.addAll(List.of(others));
        return new Md5Importer().read(main, new SourceFiles(all), limits);
    }

    static ImportScene importFiles(SourceFile main, SourceFile... others) {
        return importFiles(ImportLimits.DEFAULT, main, others);
    }
}

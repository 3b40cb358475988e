package io.posekit.conformance;

import io.posekit.asset.AssetImporters;
import io.posekit.asset.ImportLimits;
import io.posekit.asset.Model;
import io.posekit.asset.SourceFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** What the retargeting conformance tests share: importing a conformance asset, and the angle between two bones. */
final class RetargetSupport {

    private static final AssetImporters IMPORTERS = AssetImporters.all(ImportLimits.DEFAULT);

    private RetargetSupport() {
    }

    /**
     * Imports {@code assets/<relative>} of the conformance set, with the {@code .bin} and {@code .md5anim} files next
     * to it (read in place, never copied).
     */
    static Model load(String relative) {
        Path file = ConformanceData.root().resolve("assets").resolve(relative);
        try {
            List<SourceFile> files = new ArrayList<>();
            files.add(new SourceFile(file.getFileName().toString(), Files.readAllBytes(file)));
            try (Stream<Path> siblings = Files.list(file.getParent())) {
                for (Path p : siblings.sorted().toList()) {
                    String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                    if (!p.equals(file) && (name.endsWith(".bin") || name.endsWith(".md5anim"))) {
                        files.add(new SourceFile(p.getFileName().toString(), Files.readAllBytes(p)));
                    }
                }
            }
            return IMPORTERS.importUpload(files).model();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The angle between bone a→b in the model matrices m and bone c→d in n (atan2 of |u×v| and u·v), radians. */
    static double angle(float[] m, int a, int b, float[] n, int c, int d) {
        double[] u = new double[3];
        double[] v = new double[3];
        for (int k = 0; k < 3; k++) {
            u[k] = m[16 * b + 12 + k] - m[16 * a + 12 + k];
            v[k] = n[16 * d + 12 + k] - n[16 * c + 12 + k];
        }
        double cx = u[1] * v[2] - u[2] * v[1];
        double cy = u[2] * v[0] - u[0] * v[2];
        double cz = u[0] * v[1] - u[1] * v[0];
        return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
    }
}

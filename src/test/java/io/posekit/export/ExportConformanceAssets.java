package io.posekit.export;

import io.posekit.asset.Model;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes the animated export of every conformance asset, for the glTF-Validator run of {@code tools/gltf-validate}:
 * {@code <out>/<asset-id>.glb} and {@code <out>/<asset-id>.gltf} (default options), and {@code <out>/report.tsv}
 * with one line per asset: id, source format, clips, resampled keys before and after, the largest rotation (rad)
 * and translation (scene units) error, and the GLB's size in bytes.
 *
 * <p>Usage: {@code ExportConformanceAssets OUT_DIR} (the conformance data from {@code posekit.conformance.dir}).
 */
public final class ExportConformanceAssets {

    private ExportConformanceAssets() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ExportConformanceAssets OUT_DIR");
            System.exit(2);
        }
        if (!ConformanceAssets.available()) {
            System.err.println("no conformance data at " + ConformanceAssets.root());
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        List<String> lines = new ArrayList<>();
        lines.add("asset\tformat\tclips\tkeysBefore\tkeysAfter\tmaxRotationError\tmaxTranslationError\tglbBytes");
        for (ConformanceAssets.Asset asset : ConformanceAssets.all()) {
            Model model = ConformanceAssets.importModel(asset.files());
            AnimatedGltf export = AnimatedGltf.of(model, AnimatedGltf.Options.DEFAULT);
            byte[] glb = export.glb();
            Files.write(out.resolve(asset.id() + ".glb"), glb);
            Files.write(out.resolve(asset.id() + ".gltf"), export.gltf());
            AnimatedGltf.Report r = export.report();
            lines.add(String.format(Locale.ROOT, "%s\t%s\t%d\t%d\t%d\t%.3g\t%.3g\t%d", asset.id(), model.format().wireName(),
                    r.clips().size(), r.keysBefore(), r.keysAfter(), r.maxRotationError(), r.maxTranslationError(),
                    glb.length));
            System.out.println("exported " + asset.id());
        }
        Files.write(out.resolve("report.tsv"), (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}

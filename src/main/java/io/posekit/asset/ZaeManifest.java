package io.posekit.asset;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code manifest.xml} of a zipped COLLADA archive ({@code .zae}, COLLADA 1.5 §"ZAE"): a zip holding the
 * {@code .dae}, its images and, at the archive's root, {@code <dae_root>path/model.dae</dae_root>} naming the model
 * file. assimp's ZAE reader resolves the model this way (falling back to the only {@code .dae}); posekit does the same.
 */
final class ZaeManifest {

    /** The manifest's entry name at the archive root. */
    static final String NAME = "manifest.xml";
    /** A manifest is a few lines; anything bigger is not read as one. */
    private static final int MAX_BYTES = 64 * 1024;
    private static final Pattern DAE_ROOT = Pattern.compile("<dae_root\\s*>\\s*([^<]*?)\\s*</dae_root\\s*>");

    private ZaeManifest() {
    }

    /**
     * The entry name the manifest among {@code entries} (a {@code .zae}'s unpacked files) names as the model file.
     *
     * @return empty when there is no manifest, it names nothing or a path outside the archive; the model is then the
     *     archive's only model file
     * @throws ImportException invalid (422) when the manifest names a file the archive does not hold or one that is not a
     *     model file
     */
    static Optional<String> daeRoot(String archive, List<SourceFile> entries) {
        SourceFile manifest = null;
        for (SourceFile f : entries) {
            if (f.name().equalsIgnoreCase(NAME)) {
                manifest = f;
            }
        }
        if (manifest == null || manifest.size() > MAX_BYTES) {
            return Optional.empty();
        }
        Matcher m = DAE_ROOT.matcher(new String(manifest.bytes(), StandardCharsets.UTF_8));
        if (!m.find()) {
            return Optional.empty();
        }
        // the manifest writes a relative URI: "./duck.dae", "models/duck%20one.dae"
        String path = SourceFiles.normalize(java.net.URLDecoder.decode(m.group(1).replace("+", "%2B"),
                StandardCharsets.UTF_8).replace('\\', '/'));
        if (path == null) {
            return Optional.empty();
        }
        if (AssetFormat.byFileName(path).isEmpty()) {
            throw ImportException.invalid(archive + ": its manifest.xml names the model '" + path
                    + "', which is not a model file");
        }
        for (SourceFile f : entries) {
            if (f.name().equals(path)) {
                return Optional.of(path);
            }
        }
        throw ImportException.invalid(archive + ": its manifest.xml names the model '" + path
                + "', which the archive does not hold");
    }
}

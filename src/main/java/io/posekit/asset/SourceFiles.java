package io.posekit.asset;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The files of one upload (after unpacking a zip), with resolution of the relative references one file
 * makes to another. Resolution never leaves the upload: absolute paths and paths climbing above the
 * upload's root resolve to nothing.
 */
public final class SourceFiles {

    private final List<SourceFile> files;

    public SourceFiles(List<SourceFile> files) {
        this.files = List.copyOf(files);
    }

    /** All files, in upload order. */
    public List<SourceFile> files() {
        return files;
    }

    /** Total bytes of all files. */
    public long totalBytes() {
        long total = 0;
        for (SourceFile f : files) {
            total += f.size();
        }
        return total;
    }

    /**
     * Resolves {@code relativePath} (already percent-decoded, {@code /}-separated) from the directory of
     * {@code from}: first as an exact path within the upload, then, when that finds nothing, by a unique
     * file with the same base name (multipart uploads carry base names only), and last by a unique file whose path,
     * else whose base name, equals it ignoring case — files made on Windows name {@code MP5SIL.BMP} beside an
     * {@code mp5sil.bmp} (assimp's test models), which Windows and assimp's default IO system find.
     *
     * @return the file, or empty when the path is absolute, escapes the upload, or matches nothing or
     *     several files at the first step that matches any
     */
    public Optional<SourceFile> resolve(SourceFile from, String relativePath) {
        if (relativePath.isEmpty() || relativePath.startsWith("/") || relativePath.startsWith("\\")
                || relativePath.indexOf('\0') >= 0 || relativePath.contains(":")) {
            return Optional.empty();
        }
        String dir = from.name().contains("/") ? from.name().substring(0, from.name().lastIndexOf('/') + 1) : "";
        String normalized = normalize(dir + relativePath.replace('\\', '/'));
        if (normalized == null) {
            return Optional.empty();
        }
        for (SourceFile f : files) {
            if (f.name().equals(normalized)) {
                return Optional.of(f);
            }
        }
        String base = normalized.substring(normalized.lastIndexOf('/') + 1);
        for (int step = 0; step < 3; step++) {
            SourceFile match = null;
            int matches = 0;
            for (SourceFile f : files) {
                boolean hit = switch (step) {
                    case 0 -> f.baseName().equals(base);
                    case 1 -> f.name().equalsIgnoreCase(normalized);
                    default -> f.baseName().equalsIgnoreCase(base);
                };
                if (hit) {
                    match = f;
                    matches++;
                }
            }
            if (matches > 0) {
                return matches == 1 ? Optional.of(match) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Removes {@code .} and {@code dir/..} segments; {@code null} when the path climbs above the root. */
    static String normalize(String path) {
        List<String> out = new ArrayList<>();
        for (String seg : path.split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".")) {
                continue;
            }
            if (seg.equals("..")) {
                if (out.isEmpty()) {
                    return null;
                }
                out.removeLast();
            } else {
                out.add(seg);
            }
        }
        return out.isEmpty() ? null : String.join("/", out);
    }
}

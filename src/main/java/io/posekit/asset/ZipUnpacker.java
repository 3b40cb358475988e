package io.posekit.asset;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * Unpacks a zip upload into {@link SourceFile}s, defensively: entry names are normalised relative paths
 * (absolute paths, drive letters and {@code ..} that climbs out are rejected, never resolved), nested
 * archives are rejected, directory entries skipped, and the entry count, total uncompressed size and each
 * entry's compression ratio are capped by {@link ImportLimits} while inflating — a zip bomb stops at the
 * cap, not when memory runs out. Nothing touches the file system.
 */
public final class ZipUnpacker {

    /** Below this size an entry's ratio is not checked: tiny highly compressible files are normal. */
    private static final long RATIO_FLOOR_BYTES = 1 << 20;

    private ZipUnpacker() {
    }

    /** Whether {@code bytes} start with a zip local file header ({@code PK\3\4}) or the empty-archive marker. */
    public static boolean looksLikeZip(byte[] bytes) {
        return bytes.length >= 4 && bytes[0] == 'P' && bytes[1] == 'K'
                && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6));
    }

    /**
     * Unpacks {@code zip}.
     *
     * @throws ImportException invalid for a corrupt or hostile archive, too large for one over the limits
     */
    public static List<SourceFile> unpack(SourceFile zip, ImportLimits limits) {
        if (!looksLikeZip(zip.bytes())) {
            throw ImportException.invalid(zip.name() + " is not a zip archive (no PK signature)");
        }
        List<SourceFile> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        long total = 0;
        byte[] buffer = new byte[64 * 1024];
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip.bytes()))) {
            ZipEntry entry;
            int entries = 0;
            while ((entry = in.getNextEntry()) != null) {
                if (++entries > limits.maxZipEntries()) {
                    throw ImportException.tooLarge(zip.name() + " holds more than " + limits.maxZipEntries() + " entries");
                }
                String name = safeName(zip, entry.getName());
                if (entry.isDirectory() || name.startsWith("__MACOSX/") || name.endsWith("/.DS_Store")
                        || name.equals(".DS_Store")) {
                    continue;
                }
                if (name.toLowerCase(Locale.ROOT).endsWith(".zip")) {
                    throw ImportException.invalid(zip.name() + ": nested archive '" + name + "' is not allowed");
                }
                if (!names.add(name)) {
                    throw ImportException.invalid(zip.name() + ": entry '" + name + "' appears twice");
                }
                ByteArrayOutputStream content = new ByteArrayOutputStream();
                long entrySize = 0;
                int n;
                while ((n = in.read(buffer)) > 0) {
                    entrySize += n;
                    total += n;
                    if (total > limits.maxZipBytes()) {
                        throw ImportException.tooLarge(zip.name() + " expands to more than " + limits.maxZipBytes()
                                + " bytes");
                    }
                    long compressed = entry.getCompressedSize();
                    if (entrySize > RATIO_FLOOR_BYTES && compressed > 0
                            && entrySize / compressed > limits.maxZipRatio()) {
                        throw ImportException.tooLarge(zip.name() + ": entry '" + name + "' expands more than "
                                + limits.maxZipRatio() + "× (a zip bomb?)");
                    }
                    if (entrySize > RATIO_FLOOR_BYTES && compressed <= 0
                            && entrySize / Math.max(1, zip.size()) > limits.maxZipRatio()) {
                        throw ImportException.tooLarge(zip.name() + ": entry '" + name + "' expands more than "
                                + limits.maxZipRatio() + "× the archive (a zip bomb?)");
                    }
                    content.write(buffer, 0, n);
                }
                out.add(new SourceFile(name, content.toByteArray()));
            }
        } catch (ZipException e) {
            throw ImportException.invalid(zip.name() + " is not a valid zip archive: " + e.getMessage());
        } catch (IOException e) {
            throw ImportException.invalid(zip.name() + " could not be read as a zip archive: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            // ZipInputStream throws this for entry names that are not valid in the archive's charset
            throw ImportException.invalid(zip.name() + " has an unreadable entry name: " + e.getMessage());
        }
        if (out.isEmpty()) {
            throw ImportException.invalid(zip.name() + " holds no files");
        }
        return out;
    }

    private static String safeName(SourceFile zip, String raw) {
        String name = raw.replace('\\', '/');
        if (name.startsWith("/") || name.matches("^[A-Za-z]:.*") || name.indexOf('\0') >= 0) {
            throw ImportException.invalid(zip.name() + ": entry '" + raw + "' has an absolute path");
        }
        boolean directory = name.endsWith("/");
        String normalized = SourceFiles.normalize(name);
        if (normalized == null) {
            if (directory && !name.contains("..")) {
                return name; // "./" and the like: a directory entry, skipped by the caller
            }
            throw ImportException.invalid(zip.name() + ": entry '" + raw + "' points outside the archive");
        }
        return directory ? normalized + "/" : normalized;
    }
}

package io.posekit.asset;

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
 * cap, not when memory runs out. Symbolic links (entries whose Unix mode in the central directory's external
 * attributes is {@code 0xA000}) are rejected: the central directory is read first, bounds-checked, for exactly that
 * (the local headers the entries are then inflated from do not carry the mode), so an archive without a readable
 * central directory is rejected too. An archive on disk (an upload as spooled) is read in pieces, its directory from
 * its end and its entries streamed: only the inflated entries are held in memory. Nothing is written.
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

    /** Whether {@code zip}'s first bytes are a zip's (read alone, not the whole file). */
    private static boolean looksLikeZip(SourceFile zip) {
        return looksLikeZip(zip.read(0, Math.min(4, zip.size())));
    }

    /**
     * Unpacks {@code zip}, streamed from its file when on disk (only the entries' contents are held, not the archive).
     *
     * @throws ImportException invalid for a corrupt or hostile archive, too large for one over the limits
     */
    public static List<SourceFile> unpack(SourceFile zip, ImportLimits limits) {
        if (!looksLikeZip(zip)) {
            throw ImportException.invalid(zip.name() + " is not a zip archive (no PK signature)");
        }
        checkCentralDirectory(zip, limits);
        List<SourceFile> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        long total = 0;
        byte[] buffer = new byte[64 * 1024];
        try (ZipInputStream in = new ZipInputStream(new java.io.BufferedInputStream(zip.open(), 64 * 1024))) {
            ZipEntry entry;
            int entries = 0;
            while ((entry = in.getNextEntry()) != null) {
                if (++entries > limits.maxZipEntries()) {
                    throw ImportException.tooLarge(zip.name() + " holds more than " + limits.maxZipEntries() + " entries ("
                            + ImportLimits.ZIP_ENTRIES + ")");
                }
                String name = safeName(zip, entry.getName());
                if (entry.isDirectory() || skipped(name)) {
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
                                + " bytes (" + ImportLimits.ZIP_BYTES + ")");
                    }
                    long compressed = entry.getCompressedSize();
                    if (entrySize > RATIO_FLOOR_BYTES && compressed > 0
                            && entrySize / compressed > limits.maxZipRatio()) {
                        throw ImportException.tooLarge(zip.name() + ": entry '" + name + "' expands more than "
                                + limits.maxZipRatio() + "× (" + ImportLimits.ZIP_RATIO + "; a zip bomb?)");
                    }
                    if (entrySize > RATIO_FLOOR_BYTES && compressed <= 0
                            && entrySize / Math.max(1, zip.size()) > limits.maxZipRatio()) {
                        throw ImportException.tooLarge(zip.name() + ": entry '" + name + "' expands more than "
                                + limits.maxZipRatio() + "× the archive (" + ImportLimits.ZIP_RATIO + "; a zip bomb?)");
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

    /**
     * The names of the files {@link #unpack} gives for {@code zip} (normalised relative paths, directories and macOS
     * metadata left out), read from its central directory alone: nothing is inflated. For telling an upload's model
     * file before its parse; the unpack is what counts (an archive whose local headers name other files than its
     * directory unpacks to those).
     *
     * @return empty when the unpack would fail on what the directory shows (no readable directory, a link, too many
     *     entries, a name that climbs out or repeats, a nested archive): the unpack reports it
     */
    public static java.util.Optional<List<String>> listNames(SourceFile zip, ImportLimits limits) {
        try {
            if (!looksLikeZip(zip)) {
                return java.util.Optional.empty();
            }
            List<String> out = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (String raw : checkCentralDirectory(zip, limits)) {
                String name = safeName(zip, raw);
                if (skipped(name)) {
                    continue;
                }
                if (name.toLowerCase(Locale.ROOT).endsWith(".zip") || !seen.add(name)) {
                    return java.util.Optional.empty();
                }
                out.add(name);
            }
            return out.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(out);
        } catch (ImportException e) {
            return java.util.Optional.empty();
        }
    }

    /** Whether an entry (its {@link #safeName}) is left out of the unpack: a directory or macOS metadata. */
    private static boolean skipped(String name) {
        return name.endsWith("/") || name.startsWith("__MACOSX/") || name.endsWith("/.DS_Store")
                || name.equals(".DS_Store");
    }

    /** Signature of the end of central directory record. */
    private static final int EOCD = 0x06054b50;
    /** Signature of the zip64 end of central directory locator. */
    private static final int ZIP64_LOCATOR = 0x07064b50;
    /** Signature of the zip64 end of central directory record. */
    private static final int ZIP64_EOCD = 0x06064b50;
    /** Signature of a central directory file header. */
    private static final int CENTRAL_HEADER = 0x02014b50;
    /** The Unix file type bits of a mode, and the type of a symbolic link. */
    private static final int TYPE_MASK = 0xF000;
    private static final int SYMLINK = 0xA000;

    /**
     * Reads the central directory (every read bounds-checked) and rejects symbolic links and archives with more entries
     * than the limit.
     *
     * @return every entry's name as the directory spells it (UTF-8), in its order
     * @throws ImportException invalid (422) without a readable central directory or with a symbolic link; too large
     *     (413) past {@link ImportLimits#maxZipEntries()}
     */
    static List<String> checkCentralDirectory(SourceFile zip, ImportLimits limits) {
        // read from the file in pieces: its end (the record, a comment of at most 65535 bytes, the zip64 locator before
        // it), the zip64 record, the directory; never the whole archive
        long length = zip.size();
        int tailLength = (int) Math.min(length, 20 + 22 + 0xFFFF);
        long tailStart = length - tailLength;
        byte[] t = zip.read(tailStart, tailLength);
        int eocd = -1;
        // the record is 22 bytes plus a comment of at most 65535; the last signature wins (a comment may hold "PK56")
        for (int at = t.length - 22; at >= Math.max(0, t.length - 22 - 0xFFFF); at--) {
            if (u32(t, at) == EOCD && at + 22 + u16(t, at + 20) <= t.length) {
                eocd = at;
                break;
            }
        }
        if (eocd < 0) {
            throw ImportException.invalid(zip.name() + " is not a valid zip archive: it has no end of central"
                    + " directory record (cut short?)");
        }
        long entries = u16(t, eocd + 10);
        long size = u32(t, eocd + 12) & 0xFFFFFFFFL;
        long offset = u32(t, eocd + 16) & 0xFFFFFFFFL;
        if (entries == 0xFFFF || size == 0xFFFFFFFFL || offset == 0xFFFFFFFFL) {
            // zip64: the locator sits right before the record and points at the zip64 record
            int locator = eocd - 20;
            if (locator < 0 || u32(t, locator) != ZIP64_LOCATOR) {
                throw ImportException.invalid(zip.name() + " is not a valid zip archive: its zip64 end of central"
                        + " directory locator is missing");
            }
            long record = u64(t, locator + 8);
            byte[] r = record < 0 || record > length - 56L ? null : zip.read(record, 56);
            if (r == null || u32(r, 0) != ZIP64_EOCD) {
                throw ImportException.invalid(zip.name() + " is not a valid zip archive: its zip64 end of central"
                        + " directory record is not where its locator says");
            }
            entries = u64(r, 32);
            size = u64(r, 40);
            offset = u64(r, 48);
        }
        if (entries < 0 || entries > limits.maxZipEntries()) {
            throw ImportException.tooLarge(zip.name() + " holds more than " + limits.maxZipEntries() + " entries ("
                    + ImportLimits.ZIP_ENTRIES + ")");
        }
        if (offset < 0 || size < 0 || offset > length || size > length - offset) {
            throw ImportException.invalid(zip.name() + " is not a valid zip archive: its central directory (" + size
                    + " bytes at byte " + offset + ") lies outside the file");
        }
        byte[] b = zip.read(offset, (int) size);
        int at = 0;
        int end = b.length;
        List<String> names = new ArrayList<>((int) entries);
        for (long i = 0; i < entries; i++) {
            if (end - at < 46 || u32(b, at) != CENTRAL_HEADER) {
                throw ImportException.invalid(zip.name() + " is not a valid zip archive: central directory entry " + i
                        + " at byte " + (offset + at) + " is missing or damaged");
            }
            int nameLength = u16(b, at + 28);
            int extraLength = u16(b, at + 30);
            int commentLength = u16(b, at + 32);
            long external = u32(b, at + 38) & 0xFFFFFFFFL;
            long next = (long) at + 46 + nameLength + extraLength + commentLength;
            if (next > end) {
                throw ImportException.invalid(zip.name() + " is not a valid zip archive: central directory entry " + i
                        + " runs past the directory's end");
            }
            int mode = (int) (external >>> 16);
            String name = new String(b, at + 46, nameLength, java.nio.charset.StandardCharsets.UTF_8);
            if ((mode & TYPE_MASK) == SYMLINK) {
                throw ImportException.invalid(zip.name() + ": entry '" + shorten(name)
                        + "' is a symbolic link; links are not allowed in uploads");
            }
            names.add(name);
            at = (int) next;
        }
        return names;
    }

    private static String shorten(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 200; i++) {
            char c = s.charAt(i);
            out.append(c < 0x20 || c == 0x7F ? '?' : c);
        }
        return s.length() > 200 ? out + "…" : out.toString();
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static int u32(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    /** A little-endian uint64; values of 2^63 and above come out negative (and are rejected as out of range). */
    private static long u64(byte[] b, int at) {
        return (u32(b, at) & 0xFFFFFFFFL) | (long) u32(b, at + 4) << 32;
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

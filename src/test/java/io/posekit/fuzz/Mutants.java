package io.posekit.fuzz;

import io.posekit.fuzz.Seeds.Seed;
import io.posekit.fuzz.Seeds.SeedFile;
import io.posekit.fuzz.Seeds.Shape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Makes mutant number {@code index} of a format: a seed chosen and mutated by a random source seeded from the
 * campaign seed, the format and the index alone, so any mutant can be made again on its own. One to a few edits,
 * each to the model file (mostly) or a companion, structure-aware for the file's {@link Shape} or byte-level; now
 * and then an upload-level edit (a companion dropped, the model file renamed to another format's extension) or,
 * for zipped seeds, a container edit (bytes of the zip itself, traversal names, too many entries, a bomb, a zip
 * in the zip, stored entries). Single-file mutants are sent as a raw body now and then instead of multipart.
 */
final class Mutants {

    /**
     * One upload to send.
     *
     * @param format the format it was made from
     * @param index its number in the format's campaign
     * @param seed the seed's name
     * @param description every edit made, in order
     * @param parts the files to upload, by name (multipart parts named {@code file}, or the raw body when
     *     {@code raw})
     * @param raw whether the single file goes as a raw body ({@code application/octet-stream}, {@code ?filename=})
     */
    record Mutant(String format, int index, String seed, String description, Map<String, byte[]> parts, boolean raw) {

        long size() {
            return parts.values().stream().mapToLong(b -> b.length).sum();
        }
    }

    private static final String[] FOREIGN_EXTENSIONS = {".glb", ".gltf", ".dae", ".x", ".iqm", ".bvh", ".md5mesh",
        ".md5anim", ".fbx", ".zip", ".txt"};

    /** Past this size a mutant gets no further edits (growing edits stacked could otherwise reach gigabytes). */
    static final int MAX_BYTES = 16 << 20;

    private Mutants() {
    }

    /** The random source of mutant {@code index} of {@code format}: a function of the three alone. */
    static SplittableRandom random(long campaignSeed, String format, int index) {
        return new SplittableRandom(campaignSeed ^ (format.hashCode() * 0x9E3779B97F4A7C15L) ^ (index * 0xBF58476D1CE4E5B9L));
    }

    /** Mutant {@code index} of {@code format}, made from {@code seeds} (that format's). */
    static Mutant make(long campaignSeed, String format, List<Seed> seeds, int index) {
        SplittableRandom r = random(campaignSeed, format, index);
        Seed seed = seeds.get(r.nextInt(seeds.size()));
        List<SeedFile> files = new ArrayList<>(seed.files());
        List<String> log = new ArrayList<>();
        int edits = switch (r.nextInt(20)) {
            case 0 -> 4 + r.nextInt(5);
            case 1, 2 -> 3;
            case 3, 4, 5, 6 -> 2;
            default -> 1;
        };
        int containerEdits = 0;
        for (int e = 0; e < edits; e++) {
            if (files.stream().mapToLong(f -> f.bytes().length).sum() > MAX_BYTES) {
                log.add("no further edits: over " + (MAX_BYTES >> 20) + " MiB");
                break;
            }
            int roll = r.nextInt(100);
            if (seed.zipped() && roll < 20) {
                containerEdits++;
            } else if (roll < 2) {
                uploadEdit(files, r, log);
            } else {
                int target = files.size() == 1 || r.nextInt(4) != 0 ? 0 : 1 + r.nextInt(files.size() - 1);
                SeedFile f = files.get(target);
                byte[] donor = donor(seeds, r);
                List<String> inner = new ArrayList<>();
                byte[] bytes = edit(f, donor, r, inner);
                files.set(target, new SeedFile(f.name(), bytes, f.shape()));
                log.add("[" + f.name() + "] " + String.join("; ", inner));
            }
        }
        Map<String, byte[]> parts = new LinkedHashMap<>();
        if (seed.zipped()) {
            String zipName = baseName(seed.main().name()) + ".zip";
            byte[] zip = zip(files, r, containerEdits, log);
            parts.put(zipName, zip);
        } else {
            for (SeedFile f : files) {
                parts.put(f.name(), f.bytes());
            }
        }
        boolean raw = parts.size() == 1 && r.nextInt(4) == 0;
        return new Mutant(format, index, seed.name(), String.join(" | ", log), parts, raw);
    }

    /** The seed itself, packaged the way its mutants are (for checking that every seed imports). */
    static Mutant unmutated(Seed seed) {
        Map<String, byte[]> parts = new LinkedHashMap<>();
        if (seed.zipped()) {
            parts.put(baseName(seed.main().name()) + ".zip", zip(seed.files(), new SplittableRandom(0), 0, new ArrayList<>()));
        } else {
            for (SeedFile f : seed.files()) {
                parts.put(f.name(), f.bytes());
            }
        }
        return new Mutant(seed.format(), -1, seed.name(), "unmutated", parts, false);
    }

    /** One edit of one file, by what the file is. */
    private static byte[] edit(SeedFile f, byte[] donor, SplittableRandom r, List<String> log) {
        int roll = r.nextInt(100);
        return switch (f.shape()) {
            case GLB -> roll < 50 ? JsonMutations.mutateGlb(f.bytes(), donor, r, log) : ByteMutations.mutate(f.bytes(), donor, 3, r, log);
            case JSON -> roll < 55 ? JsonMutations.mutate(f.bytes(), r, log)
                    : roll < 80 ? ByteMutations.mutateText(f.bytes(), r, log) : ByteMutations.mutate(f.bytes(), donor, 0.5, r, log);
            case XML -> roll < 55 ? XmlMutations.mutate(f.bytes(), r, log)
                    : roll < 80 ? ByteMutations.mutateText(f.bytes(), r, log) : ByteMutations.mutate(f.bytes(), donor, 0.5, r, log);
            case TEXT -> roll < 60 ? ByteMutations.mutateText(f.bytes(), r, log) : ByteMutations.mutate(f.bytes(), donor, 0.5, r, log);
            case BINARY -> ByteMutations.mutate(f.bytes(), donor, 2, r, log);
        };
    }

    /** The model file renamed to another format's extension, or a companion left out. */
    private static void uploadEdit(List<SeedFile> files, SplittableRandom r, List<String> log) {
        if (files.size() > 1 && r.nextBoolean()) {
            SeedFile gone = files.remove(1 + r.nextInt(files.size() - 1));
            log.add("upload without " + gone.name());
            return;
        }
        SeedFile main = files.getFirst();
        String renamed = baseName(main.name()) + FOREIGN_EXTENSIONS[r.nextInt(FOREIGN_EXTENSIONS.length)];
        if (files.stream().anyMatch(f -> f.name().equals(renamed))) {
            return;
        }
        files.set(0, new SeedFile(renamed, main.bytes(), main.shape()));
        log.add("upload " + main.name() + " as " + renamed);
    }

    /** Another file of the same format (any seed, any file of it), for splicing. */
    private static byte[] donor(List<Seed> seeds, SplittableRandom r) {
        Seed s = seeds.get(r.nextInt(seeds.size()));
        return s.files().get(r.nextInt(s.files().size())).bytes();
    }

    /** The files zipped (fixed entry times, so the same mutant gives the same bytes), with container edits. */
    private static byte[] zip(List<SeedFile> files, SplittableRandom r, int containerEdits, List<String> log) {
        int edit = containerEdits == 0 ? -1 : r.nextInt(8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            boolean stored = edit == 7;
            for (int i = 0; i < files.size(); i++) {
                SeedFile f = files.get(i);
                String name = f.name();
                if (edit == 1 && i == files.size() - 1) {
                    name = new String[] {"../", "/tmp/", "a/../../", "..\\", "C:/", "./"}[r.nextInt(6)] + name;
                    log.add("zip entry named " + name);
                }
                entry(z, name, f.bytes(), stored);
            }
            switch (edit) {
                case 2 -> {
                    for (int i = 0; i < 1001; i++) {
                        entry(z, "junk/" + i + ".txt", new byte[] {(byte) i}, false);
                    }
                    log.add("zip with 1001 extra entries");
                }
                case 3 -> {
                    entry(z, "zeros.bin", new byte[4 << 20], false);
                    log.add("zip with a 4 MiB entry of zeros (ratio ~1000)");
                }
                case 4 -> {
                    ByteArrayOutputStream inner = new ByteArrayOutputStream();
                    try (ZipOutputStream zi = new ZipOutputStream(inner)) {
                        for (SeedFile f : files) {
                            entry(zi, f.name(), f.bytes(), false);
                        }
                    }
                    entry(z, "inner.zip", inner.toByteArray(), false);
                    log.add("zip with the same files zipped inside it");
                }
                case 5 -> {
                    ZipEntry dir = new ZipEntry("dir/");
                    dir.setTime(0);
                    z.putNextEntry(dir);
                    z.closeEntry();
                    entry(z, "dir/empty.bin", new byte[0], false);
                    log.add("zip with a directory and an empty entry");
                }
                case 6 -> {
                    SeedFile f = files.getFirst();
                    entry(z, f.name().toUpperCase(Locale.ROOT), f.bytes(), false);
                    log.add("zip with the model file twice, differently cased");
                }
                case 7 -> log.add("zip with stored (uncompressed) entries");
                default -> {
                    // no change to the entries; edit 0 edits the zip's bytes below
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] zip = out.toByteArray();
        if (edit == 0) {
            List<String> inner = new ArrayList<>();
            zip = ByteMutations.mutate(zip, zip, 3, r, inner);
            log.add("[zip bytes] " + String.join("; ", inner));
        }
        return zip;
    }

    private static void entry(ZipOutputStream z, String name, byte[] bytes, boolean stored) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setTime(0);
        if (stored) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            e.setMethod(ZipEntry.STORED);
            e.setSize(bytes.length);
            e.setCompressedSize(bytes.length);
            e.setCrc(crc.getValue());
        }
        z.putNextEntry(e);
        z.write(bytes);
        z.closeEntry();
    }

    private static String baseName(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }
}

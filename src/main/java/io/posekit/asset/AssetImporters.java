package io.posekit.asset;

import io.posekit.asset.bvh.BvhImporter;
import io.posekit.asset.collada.ColladaImporter;
import io.posekit.asset.fbx.FbxImporter;
import io.posekit.asset.gltf.GltfImporter;
import io.posekit.asset.iqm.IqmImporter;
import io.posekit.asset.md5.Md5Importer;
import io.posekit.asset.x.XImporter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The entry point of importing: takes the files of one upload, unpacks zips, finds the one model file,
 * chooses the importer by its extension, runs it and builds the runtime {@link Model}.
 *
 * <p>Exactly one model file per upload: companions (a glTF's {@code .bin} and images, an MD5 mesh's
 * animations) ride along as siblings. Thread-safe.
 */
public final class AssetImporters {

    private final Map<AssetFormat, AssetImporter> importers = new EnumMap<>(AssetFormat.class);
    private final ImportLimits limits;

    /** Importers for the given formats, with the given limits. */
    public AssetImporters(List<AssetImporter> importers, ImportLimits limits) {
        for (AssetImporter importer : importers) {
            this.importers.put(importer.format(), importer);
        }
        this.limits = limits;
    }

    /** Every importer posekit has, with {@code limits}. */
    public static AssetImporters all(ImportLimits limits) {
        return all(limits, true);
    }

    /** Every importer posekit has, with {@code limits}; glTF's Draco meshes decoded or not ({@link GltfImporter}). */
    public static AssetImporters all(ImportLimits limits, boolean draco) {
        return new AssetImporters(List.of(new GltfImporter(draco), new ColladaImporter(), new XImporter(), new IqmImporter(),
                new BvhImporter(), new Md5Importer(), new FbxImporter()), limits);
    }

    /** The limits imports run under. */
    public ImportLimits limits() {
        return limits;
    }

    /** The formats that can be imported. */
    public List<AssetFormat> supportedFormats() {
        return List.copyOf(importers.keySet());
    }

    /**
     * The result of importing an upload.
     *
     * @param model the runtime model
     * @param main the model file that was imported (a zip entry when the upload was a zip)
     */
    public record Imported(Model model, SourceFile main) {
    }

    /**
     * Imports the files of one upload.
     *
     * @throws ImportException unsupported (415) when no file has a supported model extension, invalid (422)
     *     when the upload holds several model files or the model file is not valid, too large (413) when a
     *     limit is exceeded
     */
    public Imported importUpload(List<SourceFile> uploaded) {
        List<SourceFile> files = unpackZips(uploaded);
        SourceFile main = findMain(files, zaeRoot(uploaded, files));
        AssetFormat format = AssetFormat.byFileName(main.name()).orElseThrow();
        if (main.size() == 0) {
            throw ImportException.invalid(main.baseName() + " is empty");
        }
        AssetImporter importer = importers.get(format);
        if (importer == null) {
            throw ImportException.unsupported("format '" + format.wireName() + "' (" + main.baseName()
                    + ") is recognised but not supported yet; supported: " + describeSupported());
        }
        ImportScene scene = read(importer, main, new SourceFiles(files));
        SceneLimits.check(scene, limits, main.baseName());
        return new Imported(ModelBuilder.build(format, scene), main);
    }

    /**
     * The name of the model file {@link #importUpload} would import from these files (a zip's entry name for a zip),
     * told from the names alone (a zip's from its central directory; nothing is parsed or inflated), so the asset's
     * description can be stored while the upload is parsed.
     *
     * @return empty when the names alone already make the upload fail (no model file, several, a zip whose directory
     *     cannot be read): the parse reports it
     */
    public java.util.Optional<String> mainFileOf(List<SourceFile> uploaded) {
        List<String> names = new ArrayList<>();
        for (SourceFile f : uploaded) {
            if (isZip(f)) {
                java.util.Optional<List<String>> inside = ZipUnpacker.listNames(f, limits);
                if (inside.isEmpty()) {
                    return java.util.Optional.empty();
                }
                names.addAll(inside.get());
            } else {
                names.add(f.name());
            }
        }
        try {
            return java.util.Optional.of(findMainName(names));
        } catch (ImportException e) {
            return java.util.Optional.empty(); // the parse reports it
        }
    }

    /**
     * The bytes of these uploaded files that {@link #importUpload} will hold in memory whole
     * ({@link AssetImporter#heldBytes}), told from the names and at most a few header bytes: all of them for a zip (its
     * entries are inflated into memory) or when the names alone do not tell the model file.
     */
    public long heldBytes(List<SourceFile> uploaded) {
        long all = uploaded.stream().mapToLong(SourceFile::size).sum();
        if (uploaded.stream().anyMatch(AssetImporters::isZip)) {
            return all;
        }
        String mainName;
        try {
            mainName = findMainName(uploaded.stream().map(SourceFile::name).toList());
        } catch (ImportException e) {
            return all; // the parse reports it, holding nothing
        }
        AssetImporter importer = AssetFormat.byFileName(mainName).map(importers::get).orElse(null);
        SourceFile main = uploaded.stream().filter(f -> f.name().equals(mainName)).findFirst().orElse(null);
        return importer == null || main == null ? all : importer.heldBytes(main, uploaded);
    }

    /**
     * The least of a one-file upload named {@code name} and {@code size} bytes long that {@link #importUpload} certainly
     * holds in memory whole, told from the name alone: none for a GLB (mapped, its JSON chunk unknown yet) or a file
     * no importer reads (refused as it is), all of it for any other model file or a zip.
     */
    public long heldAtLeast(String name, long size) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".zip") || lower.endsWith(".zae")) {
            return size;
        }
        return AssetFormat.byFileName(name).isEmpty() || lower.endsWith(".glb") ? 0 : size;
    }

    /** A zip upload: {@code .zip}, or {@code .zae} (zipped COLLADA, whose {@code manifest.xml} names the model). */
    private static boolean isZip(SourceFile f) {
        String lower = f.name().toLowerCase(Locale.ROOT);
        return lower.endsWith(".zip") || isZae(f);
    }

    private static boolean isZae(SourceFile f) {
        return f.name().toLowerCase(Locale.ROOT).endsWith(".zae");
    }

    /** The model a single {@code .zae}'s manifest names among the unpacked {@code files}, if that is the upload. */
    private static java.util.Optional<String> zaeRoot(List<SourceFile> uploaded, List<SourceFile> files) {
        if (uploaded.size() != 1 || !isZae(uploaded.getFirst())) {
            return java.util.Optional.empty();
        }
        return ZaeManifest.daeRoot(uploaded.getFirst().name(), files);
    }

    private ImportScene read(AssetImporter importer, SourceFile main, SourceFiles files) {
        try {
            return importer.read(main, files, limits);
        } catch (ImportException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // importers report every failure they know of precisely; anything else is an importer bug met by
            // this file, and still the client's file that cannot be read, never a server error
            throw ImportException.importerBug("internal error while reading " + main.baseName() + " ("
                    + e.getClass().getSimpleName() + "); the file could not be imported", e);
        }
    }

    private List<SourceFile> unpackZips(List<SourceFile> uploaded) {
        List<SourceFile> files = new ArrayList<>();
        for (SourceFile f : uploaded) {
            if (isZip(f)) {
                files.addAll(ZipUnpacker.unpack(f, limits));
            } else {
                files.add(f);
            }
        }
        return files;
    }

    private SourceFile findMain(List<SourceFile> files, java.util.Optional<String> named) {
        String main = named.orElseGet(() -> findMainName(files.stream().map(SourceFile::name).toList()));
        return files.stream().filter(f -> f.name().equals(main)).findFirst().orElseThrow();
    }

    /** The one model file among {@code names} (an MD5 mesh's animations ride along with it). */
    private String findMainName(List<String> names) {
        List<String> models = names.stream().filter(n -> AssetFormat.byFileName(n).isPresent()).toList();
        boolean hasMd5Mesh = models.stream().anyMatch(n -> n.toLowerCase(Locale.ROOT).endsWith(".md5mesh"));
        if (hasMd5Mesh) {
            // .md5anim files are the mesh's animations, not separate assets
            models = models.stream().filter(n -> !n.toLowerCase(Locale.ROOT).endsWith(".md5anim")).toList();
        }
        if (models.isEmpty()) {
            throw ImportException.unsupported("no model file in the upload (got " + names(names)
                    + "); supported: " + describeSupported());
        }
        if (models.size() > 1) {
            throw ImportException.invalid("the upload holds " + models.size() + " model files (" + names(models)
                    + "); upload one asset at a time");
        }
        return models.getFirst();
    }

    private String describeSupported() {
        return importers.keySet().stream()
                .map(f -> f.wireName() + " (" + String.join(", ", f.extensions()) + ")")
                .collect(Collectors.joining(", "));
    }

    private static String names(List<String> names) {
        String joined = names.stream().limit(10).collect(Collectors.joining(", "));
        return names.size() > 10 ? joined + ", …" : joined;
    }
}

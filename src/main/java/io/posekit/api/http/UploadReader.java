package io.posekit.api.http;

import io.posekit.asset.SourceFile;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.MediaType;

/**
 * Reads the files of an upload request: the parts named {@code file} of a {@code multipart/form-data} body,
 * or a raw body whose media type (or {@code ?filename=}) tells what it is. Enforces the upload size limit
 * on the total of all files; the server has read the body within {@link #maxBody()}.
 */
public final class UploadReader {

    /** Raw body media types and the file name they imply. */
    private static final Map<String, String> RAW_TYPES = Map.of(
            "model/gltf-binary", "asset.glb",
            "model/gltf+json", "asset.gltf",
            "application/json", "asset.gltf",
            "application/zip", "asset.zip",
            "application/x-zip-compressed", "asset.zip",
            "model/vnd.collada+xml", "asset.dae");

    /** Room for boundaries and part headers on top of the upload limit. */
    static final long MULTIPART_OVERHEAD = 1 << 20;
    /** The most parts a multipart body may have (a .gltf with its .bin and many images). */
    static final int MAX_PARTS = 1000;

    private final long maxBytes;

    public UploadReader(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The most bytes an upload's body may have: the limit, plus room for multipart boundaries and headers. */
    public long maxBody() {
        return maxBytes + MULTIPART_OVERHEAD;
    }

    /** {@link #maxBody()} in words, for the 413's detail. */
    public String maxBodyText() {
        return "the upload limit of " + maxBytes + " bytes plus " + MULTIPART_OVERHEAD
                + " bytes for multipart boundaries and headers";
    }

    public List<SourceFile> read(Exchange request) {
        String contentType = request.header("Content-Type");
        MediaType type;
        try {
            type = contentType == null ? null : MediaType.parseMediaType(contentType);
        } catch (RuntimeException e) {
            throw ApiException.unsupportedMediaType("Content-Type '" + contentType + "' is not a valid media type");
        }
        if (type != null && type.isCompatibleWith(MediaType.MULTIPART_FORM_DATA)) {
            return readMultipart(request, contentType);
        }
        return List.of(readRaw(request, contentType, type));
    }

    private List<SourceFile> readMultipart(Exchange request, String contentType) {
        String boundary = MultipartBody.boundary(contentType);
        // the files may use the whole limit; boundaries and part headers come on top of it
        byte[] body = request.body();
        List<MultipartBody.Part> all = MultipartBody.parse(body, boundary, MAX_PARTS);
        List<MultipartBody.Part> parts = all.stream().filter(p -> p.name().equals("file")).toList();
        if (parts.isEmpty()) {
            Set<String> names = new java.util.TreeSet<>();
            all.forEach(p -> names.add(p.name()));
            throw ApiException.badRequest("No file", "the multipart body has no part named 'file'"
                    + (names.isEmpty() ? "" : " (it has " + String.join(", ", names) + ")"));
        }
        List<SourceFile> files = new ArrayList<>(parts.size());
        Set<String> seen = new HashSet<>();
        long total = 0;
        for (MultipartBody.Part part : parts) {
            total += part.content().length;
            if (total > maxBytes) {
                throw ApiException.tooLarge("the uploaded files exceed the upload limit of " + maxBytes + " bytes");
            }
            String name = baseName(part.filename());
            if (name.isEmpty()) {
                throw ApiException.badRequest("File without a name",
                        "a part named 'file' has no filename; the file name's extension tells posekit the format");
            }
            if (!seen.add(name)) {
                throw ApiException.badRequest("Duplicate file name", "two uploaded files are named '" + name + "'");
            }
            files.add(new SourceFile(name, part.content()));
        }
        return files;
    }

    private SourceFile readRaw(Exchange request, String contentType, MediaType type) {
        String filename = request.query("filename");
        String name;
        if (filename != null && !filename.isBlank()) {
            name = baseName(filename);
        } else if (type != null && RAW_TYPES.containsKey(type.getType() + "/" + type.getSubtype())) {
            name = RAW_TYPES.get(type.getType() + "/" + type.getSubtype());
        } else {
            throw ApiException.unsupportedMediaType("Content-Type '" + contentType + "' does not say what the file is:"
                    + " send multipart/form-data with parts named 'file', one of " + String.join(", ",
                            RAW_TYPES.keySet().stream().sorted().toList())
                    + ", or application/octet-stream with ?filename=");
        }
        if (type != null && type.isCompatibleWith(MediaType.APPLICATION_FORM_URLENCODED)) {
            throw ApiException.unsupportedMediaType("form-urlencoded bodies cannot carry files;"
                    + " use multipart/form-data with parts named 'file'");
        }
        String length = request.header("Content-Length");
        if (length != null && Long.parseLong(length.strip()) > maxBytes) {
            throw ApiException.tooLarge("the body of " + length.strip() + " bytes exceeds the upload limit of " + maxBytes
                    + " bytes");
        }
        byte[] bytes = request.body();
        if (bytes.length > maxBytes) {
            throw ApiException.tooLarge("the body exceeds the upload limit of " + maxBytes + " bytes");
        }
        if (bytes.length == 0) {
            throw ApiException.badRequest("Empty body", "the request body is empty");
        }
        return new SourceFile(name, bytes);
    }

    /** The last segment of a client-supplied file name, whatever its path separators. */
    static String baseName(String original) {
        if (original == null) {
            return "";
        }
        String name = original.replace('\\', '/');
        name = name.substring(name.lastIndexOf('/') + 1).strip();
        if (name.equals(".") || name.equals("..") || name.indexOf('\0') >= 0) {
            return "";
        }
        return name;
    }
}

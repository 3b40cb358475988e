package io.posekit.api.http;

import io.posekit.asset.SourceFile;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Reads the files of an upload request: the parts named {@code file} of a {@code multipart/form-data} body,
 * or a raw body whose media type (or {@code ?filename=}) tells what it is. Enforces the upload size limit
 * on the total of all files, reading no more than the limit plus one byte of a raw body.
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

    public List<SourceFile> read(HttpServletRequest request) {
        String contentType = request.getContentType();
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

    private List<SourceFile> readMultipart(HttpServletRequest request, String contentType) {
        String boundary = MultipartBody.boundary(contentType);
        // the files may use the whole limit; boundaries and part headers come on top of it
        byte[] body = readBody(request, maxBytes + MULTIPART_OVERHEAD, "the upload limit of " + maxBytes + " bytes plus "
                + MULTIPART_OVERHEAD + " bytes for multipart boundaries and headers");
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

    private SourceFile readRaw(HttpServletRequest request, String contentType, MediaType type) {
        String filename = queryParameter(request, "filename");
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
        byte[] bytes = readBody(request, maxBytes, "the upload limit of " + maxBytes + " bytes");
        if (bytes.length == 0) {
            throw ApiException.badRequest("Empty body", "the request body is empty");
        }
        return new SourceFile(name, bytes);
    }

    /**
     * The whole request body, reading at most {@code limit + 1} bytes.
     *
     * @param limitText the limit in words, for the message ({@code the upload limit of … bytes})
     * @throws ApiException 413 when the body (declared or read) exceeds the limit; 400 when it cannot be read
     */
    private static byte[] readBody(HttpServletRequest request, long limit, String limitText) {
        long declared = request.getContentLengthLong();
        if (declared > limit) {
            throw ApiException.tooLarge("the body of " + declared + " bytes exceeds " + limitText);
        }
        try (InputStream in = request.getInputStream()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (bytes.length > limit) {
                throw ApiException.tooLarge("the body exceeds " + limitText);
            }
            return bytes;
        } catch (IOException e) {
            throw ApiException.badRequest("Unreadable body", "the request body could not be read: " + e.getMessage());
        }
    }

    /** Reads a parameter from the query string only (never from a form body). */
    private static String queryParameter(HttpServletRequest request, String name) {
        String query = request.getQueryString();
        if (query == null) {
            return null;
        }
        List<String> values = UriComponentsBuilder.newInstance().query(query).build().getQueryParams().get(name);
        if (values == null || values.isEmpty() || values.getFirst() == null) {
            return null;
        }
        return java.net.URLDecoder.decode(values.getFirst(), java.nio.charset.StandardCharsets.UTF_8);
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

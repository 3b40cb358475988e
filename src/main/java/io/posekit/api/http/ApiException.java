package io.posekit.api.http;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses, with the status and the precise detail that the problem+json response carries.
 */
public final class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String title;

    public ApiException(HttpStatus status, String title, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
    }

    private final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** Headers the problem answer carries besides its body (e.g. {@code Allow}, {@code Retry-After}). */
    public java.util.Map<String, String> headers() {
        return headers;
    }

    /** Adds a header to the problem answer. */
    public ApiException withHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }

    public static ApiException badRequest(String title, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, title, detail);
    }

    public static ApiException notFound(String title, String detail) {
        return new ApiException(HttpStatus.NOT_FOUND, title, detail);
    }

    public static ApiException unsupportedMediaType(String detail) {
        return new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", detail);
    }

    public static ApiException tooLarge(String detail) {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "Upload too large", detail);
    }

    /**
     * The 422 for a joint that dual-quaternion skinning cannot represent, naming the skin, the joint (index and node
     * name), what is wrong and, for a bake, the frame.
     *
     * @param when e.g. {@code "frame 12 (t = 0.4 s): "}, or empty
     */
    public static ApiException notRigid(io.posekit.skinning.NonRigidJointException e, io.posekit.asset.Model model, int skin,
            String when) {
        io.posekit.rig.Skin s = model.skins().get(skin);
        String name = e.joint() < s.jointCount() ? model.rig().name(s.jointNode(e.joint())) : null;
        String what = switch (e.reason()) {
            case NON_UNIFORM_SCALE -> "has non-uniform scale " + e.formattedScales();
            case SHEAR -> "is sheared";
            case MIRROR -> "is mirrored (scale " + e.formattedScales() + ")";
            case NOT_FINITE -> "has a non-finite skinning matrix";
        };
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Not representable by dual quaternions", when + "skin "
                + skin + " joint " + e.joint() + (name == null ? "" : " ('" + name + "')") + " " + what
                + "; dual-quaternion skinning cannot represent it; use skinning=linear");
    }
}

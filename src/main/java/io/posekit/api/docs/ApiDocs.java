package io.posekit.api.docs;

/**
 * Texts shared by the OpenAPI annotations of the controllers (annotation values must be constants). The
 * contract is {@code api-spec/openapi.yaml}; {@code OpenApiContractTest} keeps the two in step.
 */
public final class ApiDocs {

    private ApiDocs() {
    }

    public static final String PROBLEM_JSON = "application/problem+json";

    public static final String ID = "The asset's content id (lowercase hex SHA-256).";
    public static final String ID_EXAMPLE = "d97044e701822bac5a62696459b27d7b375aada5de8574ed4362edbba94771f7";
    public static final String CLIP = "Clip name, or index when no clip has that name. Absent = the rest pose.";
    public static final String TIME = "Time in seconds, a finite decimal number (may be negative). Give at most one of time,"
            + " frame (with fps) and normalized; none = 0.";
    public static final String FRAME = "Time as a frame number at fps frames per second (time = frame / fps); decimals allowed.";
    public static final String FPS = "Frames per second of frame; a positive number, required with frame.";
    public static final String NORMALIZED = "Time in clip durations (time = normalized × duration): 0 is the start, 1 the end."
            + " Needs a clip.";
    public static final String SPEED = "Playback speed: the time is multiplied by it before the loop mode maps it into the"
            + " clip; negative plays backwards. Default 1.";
    public static final String LAYER = "A blend layer instead of one clip (repeat for more layers), as key:value pairs separated"
            + " by semicolons: clip (required), weight (default 1), mode (normal or additive), time, normalized, frame and fps (the"
            + " layer's own time; default the request's), speed, loop, mask (joint names separated by |: only these"
            + " joints and their subtrees), reference (additive: first, rest or a clip name). E.g."
            + " layer=clip:Walk;weight:0.7&layer=clip:Run;weight:0.3&normalized=0.4.";
    public static final String THRESHOLD = "Blend threshold: a joint whose normal layers weigh less than it is blended with the"
            + " rest pose. Default 0.1.";
    public static final String SKINNING = "linear (default): linear blend skinning; dq: dual-quaternion skinning (rigid parts"
            + " blended as dual quaternions, uniform scale linearly; 422 when a used joint has non-uniform scale, shear or"
            + " mirroring).";
    public static final String FORM = "matrix (default): 16 floats per joint; dualQuaternion: each skinning matrix as a unit dual"
            + " quaternion [real xyzw, dual xyzw] and a uniform scale applied first (binary: 9 floats per joint); 422 when a"
            + " joint is not rigid × uniform scale.";
    public static final String NOT_RIGID = "Dual quaternions were asked for and a joint has non-uniform scale, shear or"
            + " mirroring, which they cannot represent; the detail names the skin, joint (and frame). Or the pose"
            + " overflows the float range (a degenerate file).";
    public static final String OUT_OF_RANGE = "The pose at this time overflows the float range (the file's finite transforms"
            + " multiply beyond it); the detail names the node.";
    public static final String CLIPS_INVALID = "The file is not valid for its format, has no clips, or none of its clips"
            + " animates a node named like one of the asset's.";
    public static final String NOT_WRITABLE = "The pose has non-finite vertices (a degenerate animation) or the GLB would exceed"
            + " the format's limits; the detail says which.";
    public static final String LOOP = "How time maps into the clip: clamp holds the first/last key; repeat wraps (t = k·d → 0);"
            + " pingpong plays forward then backward.";
    public static final String SKIN = "Skin index (see the summary's skins).";
    public static final String MESH = "Mesh instance index (see the summary's meshes).";

    public static final String BAD_REQUEST = "A parameter is invalid (time not a finite number, unknown loop mode, space or"
            + " attribute, malformed upload).";
    public static final String NOT_FOUND = "The asset, clip, skin or mesh does not exist.";
    public static final String TOO_LARGE = "The upload exceeds the upload limit, or decoding it would exceed an import limit.";
    public static final String UNSUPPORTED = "The media type or file format is unknown or not supported.";
    static final String INVALID = "The file is not valid for its format; the detail says what and where.";
    public static final String INVALID_OR_SLOW = "The file is not valid for its format (the detail says what and where),"
            + " or parsing it took longer than the parse-time limit.";
    static final String GONE = "The asset's stored files no longer match its id (corrupt in the store); delete it and"
            + " upload it again.";
    public static final String BUSY_UPLOAD = "Every parsing thread is busy and the waiting slots are taken, or the upload waited"
            + " the parse-time limit for a thread, or the asset store could not be reached; nothing was stored. Retry"
            + " after Retry-After seconds.";
    static final String BUSY_REPARSE = "The asset had to be parsed again (evicted from the cache) and no parsing thread"
            + " could do it in time, or it had to be read from the asset store and the store could not be reached."
            + " Retry after Retry-After seconds.";
    public static final String STORE_UNAVAILABLE = "The asset store could not be reached or did not complete the operation;"
            + " nothing was changed. Retry after Retry-After seconds.";
    public static final String RETRY_AFTER = "Seconds to wait before retrying.";
    public static final String GLB_DISPOSITION = "For model/gltf-binary responses: inline, with a file name.";
    public static final String NOT_FOUND_OR_NO_MESHES = "The asset or clip does not exist, or the asset has no meshes.";
}

package io.posekit.api;

import io.posekit.api.http.ApiException;
import io.posekit.asset.Model;
import io.posekit.math.ArrayChecks;
import io.posekit.sampling.Pose;
import org.springframework.http.HttpStatus;

/**
 * Keeps non-finite numbers out of JSON answers: a file whose finite values multiply beyond the float range (a joint
 * scaled by 1e30 under an inverse bind of 1e20, say) poses to infinities, which JSON cannot carry. Such a pose is a
 * 422 naming where it overflowed, never a body with "Infinity" or "NaN" in it.
 */
final class FiniteValues {

    private FiniteValues() {
    }

    /**
     * @throws ApiException 422 when a local transform or model matrix of {@code pose} is not finite
     */
    static void check(Model model, Pose pose) {
        int n = model.rig().nodeCount();
        for (int i = 0; i < n; i++) {
            if (!finite(pose.local().translations(), 3 * i, 3) || !finite(pose.local().rotations(), 4 * i, 4)
                    || !finite(pose.local().scales(), 3 * i, 3)) {
                throw overflow("the local transform of node " + i + name(model, i));
            }
            if (!finite(pose.modelMatrices(), 16 * i, 16)) {
                throw overflow("the model matrix of node " + i + name(model, i));
            }
        }
    }

    /**
     * @param what what {@code values} are, e.g. {@code "skin 0's skinning matrices"}
     * @throws ApiException 422 when a value of {@code values} is not finite
     */
    static void check(float[] values, String what) {
        if (values != null && !finite(values, 0, values.length)) {
            throw overflow(what);
        }
    }

    private static boolean finite(float[] a, int from, int length) {
        return ArrayChecks.firstNonFinite(a, from, from + length) < 0;
    }

    private static String name(Model model, int node) {
        String name = model.rig().name(node);
        return name == null ? "" : " ('" + name + "')";
    }

    private static ApiException overflow(String where) {
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Pose out of range", "at this time " + where
                + " is not finite: the file's transforms multiply beyond the float range");
    }
}

package floor;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** The bodies every floor answers: the sizes of Fox's skinning matrices (24 joints), as float32 and as JSON. */
final class Bodies {

    private Bodies() {
    }

    static byte[] binary() {
        byte[] b = new byte[24 * 16 * 4];
        new Random(1).nextBytes(b);
        return b;
    }

    /** A JSON body shaped like posekit's matrices answer: 24 joint names and 24 arrays of 16 numbers. */
    static byte[] json() {
        Random r = new Random(2);
        StringBuilder s = new StringBuilder("{\"skin\":0,\"clip\":\"Walk\",\"time\":0.5,\"loop\":\"repeat\",\"localTime\":0.5,\"joints\":[");
        for (int j = 0; j < 24; j++) {
            s.append(j == 0 ? "" : ",").append("\"b_Joint_").append(j).append('"');
        }
        s.append("],\"matrices\":[");
        for (int j = 0; j < 24; j++) {
            s.append(j == 0 ? "[" : ",[");
            for (int k = 0; k < 16; k++) {
                s.append(k == 0 ? "" : ",").append((float) (r.nextGaussian() * 0.5));
            }
            s.append(']');
        }
        return s.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}

package io.posekit.export;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Whether Node.js is on the PATH, for the tests that run an npm reference tool (they skip without it). */
final class NodeJs {

    private NodeJs() {
    }

    static boolean available() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}

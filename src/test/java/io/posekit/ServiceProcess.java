package io.posekit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged service in a process of its own, for the tests that start, kill or starve it (the ITs). */
final class ServiceProcess {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);


    final Process process;
    final int port;
    final Path log;
    /** From the process start to its first ready answer. */
    long readyMillis;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts {@code java <jvmOptions> -jar jar} on a free port and {@code storeDir}, without the start-up warm-up,
     * with {@code settings} ({@code --name=value}) after; returns once it is ready.
     */
    static ServiceProcess start(Path jar, Path storeDir, Path log, List<String> jvmOptions, String... settings)
            throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString(), "--server.port=" + port,
                "--posekit.store.dir=" + storeDir.toAbsolutePath(), "--posekit.warm-up.duration=0"));
        command.addAll(List.of(settings));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        ServiceProcess started = new ServiceProcess(process, port, log);
        try {
            started.awaitReady();
        } catch (Throwable e) {
            started.killHard();
            throw e;
        }
        return started;
    }

    private void awaitReady() throws Exception {
        long start = process.info().startInstant().map(i -> i.toEpochMilli()).orElse(System.currentTimeMillis());
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build()) {
            HttpRequest ready = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(5)).GET().build();
            while (System.nanoTime() < deadline) {
                assertThat(process.isAlive()).as("the service is running; its log %s:%n%s", log, tail()).isTrue();
                try {
                    if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        readyMillis = System.currentTimeMillis() - start;
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("the service was not ready within " + READY_TIMEOUT + "; its log " + log + ":\n" + tail());
    }

    /** SIGKILL (what {@link Process#destroyForcibly()} sends on Linux and macOS); returns the exit code. */
    int killHard() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the service process " + process.pid() + " outlived SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while killing the service", e);
        }
        return process.exitValue();
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}

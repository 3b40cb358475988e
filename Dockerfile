# posekit as a container. Build the jar on the host first (./mvnw -DskipTests package), then:
#   docker build -t posekit .                                         (with a registry)
#   docker build --build-arg BASE_IMAGE=local/temurin-jre:25 -t posekit .   (registry-less machines)
# The build trains the JDK's AOT cache in the image (stage `training`, 30–60 s): the service starts, runs its start-up
# warm-up and exits, and the classes it loaded and linked and the profiles of its hot paths go into /app/posekit.aot,
# which the start command uses (docs/operations.md). A cache is only valid for the JVM build and jars that made it, so
# it is made here, on the image's own JVM; `--build-arg AOT_TRAINING=0s` skips the warm-up in the training run.
ARG BASE_IMAGE=eclipse-temurin:25-jre

FROM ${BASE_IMAGE} AS layers
WORKDIR /build
COPY target/posekit.jar posekit.jar
# Boot's layered layout, without its launcher: the application as a plain jar beside its libraries (lib/), whose
# classes the AOT cache can hold (it cannot hold classes of jars nested in a jar); each layer is its own image layer
RUN java -Djarmode=tools -jar posekit.jar extract --layers --destination extracted

# the image's JVM on the image's files: the same paths, the same jars (COPY keeps their times), the same flags
FROM ${BASE_IMAGE} AS training
ARG AOT_TRAINING=120s
WORKDIR /app
COPY --from=layers /build/extracted/dependencies/ ./
COPY --from=layers /build/extracted/spring-boot-loader/ ./
COPY --from=layers /build/extracted/snapshot-dependencies/ ./
COPY --from=layers /build/extracted/application/ ./
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=25 -XX:+ExitOnOutOfMemoryError -XX:G1PeriodicGCInterval=30000"
RUN java -Dspring.aot.enabled=true -XX:AOTCacheOutput=/app/posekit.aot -jar /app/posekit.jar \
        --server.port=0 --server.address=127.0.0.1 --posekit.security.mode=open --posekit.store.dir=/tmp/training-store \
        --posekit.warm-up.duration=${AOT_TRAINING} --posekit.warm-up.exit=true \
        --logging.level.root=WARN \
    && rm -rf /tmp/training-store

FROM ${BASE_IMAGE}
RUN groupadd --system --gid 10001 posekit \
    && useradd --system --uid 10001 --gid posekit --home-dir /app --no-create-home --shell /usr/sbin/nologin posekit \
    && mkdir -p /data \
    && chown posekit:posekit /data
WORKDIR /app
COPY --from=layers /build/extracted/dependencies/ ./
COPY --from=layers /build/extracted/spring-boot-loader/ ./
COPY --from=layers /build/extracted/snapshot-dependencies/ ./
COPY --from=layers /build/extracted/application/ ./
COPY --from=training /app/posekit.aot ./
USER posekit:posekit
# reachable from a network: credentials are required (posekit.security.api-keys-file or a JWT issuer), or the
# service refuses to start unless opened explicitly with POSEKIT_SECURITY_MODE=open (docs/security.md)
ENV POSEKIT_STORE_DIR=/data \
    SERVER_ADDRESS=0.0.0.0 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=25 -XX:+ExitOnOutOfMemoryError -XX:G1PeriodicGCInterval=30000"
VOLUME /data
EXPOSE 8080
# readiness over plain bash (no curl in the JRE images): 200 once the store is writable, the start-up warm-up is done
# and the app accepts traffic (an unreachable shared S3 store is DEGRADED, still 200: every replica is affected alike
# and serves what it parsed)
HEALTHCHECK --interval=5s --timeout=3s --start-period=90s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /actuator/health/readiness HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -qE '^HTTP/1[.][01] 200'"]
# -XX:AOTCache: a cache that does not match (another JVM, changed jars) is ignored with a warning, costing time only.
# -Dspring.aot.enabled: the context as Spring's AOT processing generated it at package time (no configuration class
# parsing or condition evaluation at start-up; conditions are fixed at build time, docs/operations.md). No
# --add-modules jdk.incubator.vector: the scalar kernels (the module costs ≈ 2 s of a one-core start, as it keeps the
# AOT cache from archiving the module graph); add it through JDK_JAVA_OPTIONS for the Vector API kernels.
ENTRYPOINT ["java", "-Dspring.aot.enabled=true", "-XX:AOTCache=/app/posekit.aot", "-jar", "/app/posekit.jar"]

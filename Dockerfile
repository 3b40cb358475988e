# posekit as a container. Build the jar on the host first (./mvnw -DskipTests package), then:
#   docker build -t posekit .                                         (with a registry)
#   docker build --build-arg BASE_IMAGE=local/temurin-jre:25 -t posekit .   (registry-less machines)
ARG BASE_IMAGE=eclipse-temurin:25-jre

FROM ${BASE_IMAGE} AS layers
WORKDIR /build
COPY target/posekit.jar posekit.jar
# Boot's layered layout: dependencies change rarely, the application often; each is its own image layer
RUN java -Djarmode=tools -jar posekit.jar extract --layers --launcher --destination extracted

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
USER posekit:posekit
# reachable from a network: credentials are required (posekit.security.api-keys-file or a JWT issuer), or the
# service refuses to start unless opened explicitly with POSEKIT_SECURITY_MODE=open (docs/security.md)
ENV POSEKIT_STORE_DIR=/data \
    SERVER_ADDRESS=0.0.0.0 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=25 -XX:+ExitOnOutOfMemoryError"
VOLUME /data
EXPOSE 8080
# readiness over plain bash (no curl in the JRE images): 200 once the store is writable and the app accepts traffic
# (an unreachable shared S3 store is DEGRADED, still 200: every replica is affected alike and serves what it parsed)
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /actuator/health/readiness HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -qE '^HTTP/1[.][01] 200'"]
ENTRYPOINT ["java", "--add-modules", "jdk.incubator.vector", "org.springframework.boot.loader.launch.JarLauncher"]

package io.posekit.config;

import io.posekit.math.Kernels;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.stereotype.Component;

/**
 * Names the kernel path of the hot loops in {@code /actuator/info}, e.g. {@code "kernels": {"path": "vector",
 * "species": "FloatVector 128 bits, DoubleVector 256 bits (preferred 512 bits)", "reason": "jdk.incubator.vector
 * present (posekit.kernels=auto)"}}, so an operator can tell whether the JVM was started with
 * {@code --add-modules jdk.incubator.vector}.
 */
@Component
class KernelsInfoContributor implements InfoContributor {

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, Object> kernels = new LinkedHashMap<>();
        kernels.put("path", Kernels.selected().label());
        if (Kernels.selected() == Kernels.Path.VECTOR) {
            Kernels.species().ifPresent(s -> kernels.put("species", s));
        }
        kernels.put("reason", Kernels.reason());
        builder.withDetail("kernels", kernels);
    }
}

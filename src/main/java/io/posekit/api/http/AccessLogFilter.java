package io.posekit.api.http;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * One structured (logfmt) line per request on the {@code posekit.access} logger:
 * {@code method=GET path=/api/v1/assets/… status=200 ms=1.84}. The query string is left out: it carries
 * nothing secret here, but it is unbounded and the path already identifies the endpoint and asset.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class AccessLogFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger("posekit.access");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long start = System.nanoTime();
        try {
            chain.doFilter(request, response);
        } finally {
            if (log.isInfoEnabled()) {
                double ms = (System.nanoTime() - start) / 1e6;
                log.info("method={} path={} status={} ms={}", request.getMethod(), quoted(request.getRequestURI()),
                        response.getStatus(), String.format(Locale.ROOT, "%.2f", ms));
            }
        }
    }

    /** The path as a logfmt value: quoted when it holds spaces, quotes or '=' (percent-decoded input). */
    private static String quoted(String path) {
        if (path.chars().noneMatch(c -> c == ' ' || c == '"' || c == '=' || c < 0x20)) {
            return path;
        }
        return '"' + path.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\x00-\\x1f]", "?") + '"';
    }
}

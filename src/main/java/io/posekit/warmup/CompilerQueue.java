package io.posekit.warmup;

import java.lang.management.ManagementFactory;
import java.util.function.IntSupplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * How many methods wait in HotSpot's compile queues (C1 and C2 together, not counting those being compiled), read
 * through the {@code Compiler.queue} diagnostic command ({@code jcmd <pid> Compiler.queue}) of the platform MBean
 * server. A call costs 2–5 ms on one core; the warm-up asks once per window.
 *
 * <p>Why the queue and not only the compilation time: on one core the compiler threads share the CPU with the
 * exercises, so a long queue can sit behind a compiler that is not given the CPU; an empty queue says that nothing hot
 * is still waiting for its compiled code.
 */
final class CompilerQueue {

    private static final String[] SIGNATURE = {String[].class.getName()};

    private CompilerQueue() {
    }

    /**
     * A probe of the queue's length, or {@code null} when this JVM has no such diagnostic command (not HotSpot, or the
     * management module absent). The probe answers -1 when a call fails.
     */
    static IntSupplier probe() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            IntSupplier probe = () -> {
                try {
                    return queued((String) server.invoke(name, "compilerQueue", new Object[] {null}, SIGNATURE));
                } catch (JMException | RuntimeException e) {
                    return -1;
                }
            };
            return probe.getAsInt() < 0 ? null : probe;
        } catch (JMException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    /**
     * The methods listed under the {@code C1 compile queue:} and {@code C2 compile queue:} headings of the command's
     * output (a heading followed by {@code Empty} lists none); -1 when the output has neither heading.
     */
    static int queued(String output) {
        int queued = 0;
        boolean inQueue = false;
        boolean seen = false;
        for (String line : output.split("\n")) {
            String l = line.strip();
            if (l.endsWith("compile queue:")) {
                inQueue = true;
                seen = true;
            } else if (l.endsWith(":")) {
                // another heading ("Current compiles:")
                inQueue = false;
            } else if (inQueue && !l.isEmpty() && !l.equals("Empty")) {
                queued++;
            }
        }
        return seen ? queued : -1;
    }
}

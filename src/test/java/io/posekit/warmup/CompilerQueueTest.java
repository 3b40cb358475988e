package io.posekit.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link CompilerQueue}: the {@code Compiler.queue} command's output as JDK 25 prints it, and this JVM's. */
class CompilerQueueTest {

    @Test
    void countsTheQueuedMethodsNotTheOnesBeingCompiled() {
        String output = """
                Current compiles:\s
                C2 CompilerThread0  1882       4       java.lang.Integer::toString (55 bytes)

                C1 compile queue:
                1884       3       Q::main (129 bytes)

                C2 compile queue:
                1786       4       java.lang.reflect.Modifier::isProtected (12 bytes)
                1787       4       java.util.ArrayList::add (25 bytes)

                """;
        assertThat(CompilerQueue.queued(output)).isEqualTo(3);
        assertThat(CompilerQueue.queued("Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n"))
                .isZero();
        assertThat(CompilerQueue.queued("Unknown diagnostic command")).isEqualTo(-1);
    }

    @Test
    void thisJvmAnswers() {
        assertThat(CompilerQueue.probe()).isNotNull();
        assertThat(CompilerQueue.probe().getAsInt()).isGreaterThanOrEqualTo(0);
    }
}

package dev.luavm.conformance.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.luavm.bytecode.Disassembler;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.conformance.TestTier;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.tier.Tier;
import java.util.regex.Pattern;

/**
 * Coverage-guided fuzzing of the front end (lexer, syntax checker, ANTLR parser, code
 * generator): any bytes as a chunk must either compile to well-formed bytecode
 * ({@link BytecodeChecker}, and the disassembler can list it) or raise a {@link LuaError} whose
 * message is a string reading {@code fuzz:LINE: ...}, as PUC's syntax errors do. Anything else
 * (another exception, a {@link StackOverflowError}) is a finding.
 *
 * <p>With {@code -Dluavm.test.tier=compile-all} the compiled tier's code generator must also
 * turn every prototype into a class the JVM accepts ({@link GeneratedCodeChecker}).
 *
 * <p>Plain {@code mvn test} replays the inputs in {@code CompilerFuzzTestInputs/compile/};
 * {@code JAZZER_FUZZ=1} fuzzes (see {@code conformance-tests/DIFFTEST.md}).
 */
class CompilerFuzzTest {
    private static final Pattern MESSAGE = Pattern.compile("fuzz:\\d+: .*", Pattern.DOTALL);
    /** With {@code -Dluavm.test.tier=compile-all} (or auto): every prototype also goes through the code generator. */
    private static final GeneratedCodeChecker JVM_CODE =
            TestTier.requested() == null || TestTier.requested() == Tier.INTERP ? null : new GeneratedCodeChecker();

    @FuzzTest(maxDuration = "30m")
    void compile(byte[] chunk) {
        Prototype p;
        try {
            p = LuaCompiler.compile(chunk, "=fuzz");
        } catch (LuaError e) {
            if (!(e.value() instanceof LuaString s) || !MESSAGE.matcher(s.toString()).matches()) {
                throw new AssertionError("syntax error message without position: " + e.getMessage());
            }
            return;
        }
        BytecodeChecker.check(p);
        Disassembler.listing(p, true);
        if (JVM_CODE != null) JVM_CODE.check(p);
    }
}

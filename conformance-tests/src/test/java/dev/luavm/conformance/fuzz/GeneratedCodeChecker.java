package dev.luavm.conformance.fuzz;

import dev.luavm.bytecode.Prototype;
import dev.luavm.jit.AsmFunctionCompiler;
import dev.luavm.vm.Tiering;
import dev.luavm.vm.tier.FunctionCompiler;
import java.lang.invoke.MethodHandles;

/**
 * The compiled tier's side of the compiler fuzz target: every prototype of a chunk (up to
 * {@link Tiering#MAX_INSTRUCTIONS}, as the tier compiles them) goes through the code generator,
 * which must return class bytes or null (declined) and never throw, and the bytes must be a
 * class the JVM defines, verifies and instantiates (in the runtime's package, as
 * {@code Tiering} defines them; the test class path puts both in the unnamed module).
 */
final class GeneratedCodeChecker {
    private final FunctionCompiler generator = new AsmFunctionCompiler();
    private final MethodHandles.Lookup runtime;
    private int serial;

    GeneratedCodeChecker() {
        try {
            runtime = MethodHandles.privateLookupIn(Class.forName("dev.luavm.vm.TierSupport"), MethodHandles.lookup());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    void check(Prototype p) {
        if (p.code.length <= Tiering.MAX_INSTRUCTIONS) {
            String name = FunctionCompiler.PACKAGE + "FuzzFunction" + (serial++);
            byte[] bytes = generator.compile(p, name);
            if (bytes != null) {
                try {
                    MethodHandles.Lookup hidden = runtime.defineHiddenClass(bytes, true);
                    hidden.findConstructor(hidden.lookupClass(), java.lang.invoke.MethodType.methodType(void.class)).invoke();
                } catch (Throwable e) {
                    if (e instanceof VirtualMachineError vme && !(e instanceof StackOverflowError)) throw vme;
                    throw new AssertionError("the JVM refused the class generated for " + where(p) + ": " + e, e);
                }
            }
        }
        for (Prototype child : p.protos) check(child);
    }

    private static String where(Prototype p) {
        return p.lineDefined == 0 ? "the main chunk" : "the function at line " + p.lineDefined;
    }
}

package dev.luavm.stdlib;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs every test, and its set-up and tear-down, on a host thread with a small Java stack when the
 * system property {@value #PROPERTY} names its size in KiB (the build's {@code small-stack}
 * execution sets 128): the library must work on such a thread from its first use, and nothing
 * it does may let a {@link StackOverflowError} or any other {@link Error} reach the host. The
 * library's first use is {@code LuaVM}'s (it initialises the bundles' classes on a roomy thread),
 * so a runtime is made first, on JUnit's thread. Without the property, tests run on JUnit's own
 * thread as usual.
 */
public final class SmallStackExtension implements InvocationInterceptor {
    /** The stack size, in KiB, of the thread each test runs on; unset: JUnit's thread. */
    public static final String PROPERTY = "luavm.test.stackKiB";

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                    ExtensionContext context) throws Throwable {
        onSmallStack(invocation, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                            ExtensionContext context) throws Throwable {
        onSmallStack(invocation, context);
    }

    @Override
    public void interceptBeforeEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                          ExtensionContext context) throws Throwable {
        onSmallStack(invocation, context);
    }

    @Override
    public void interceptAfterEachMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                         ExtensionContext context) throws Throwable {
        onSmallStack(invocation, context);
    }

    @Override
    public void interceptBeforeAllMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                         ExtensionContext context) throws Throwable {
        onSmallStack(invocation, context);
    }

    private static void onSmallStack(Invocation<Void> invocation, ExtensionContext context) throws Throwable {
        String kib = System.getProperty(PROPERTY);
        if (kib == null || kib.isBlank()) {
            invocation.proceed();
            return;
        }
        // A host meets the library through LuaVM, which initialises the bundles' classes on a
        // roomy thread at its first use (LuaVM.classPathBundles); these tests also build its
        // innards by hand (LuaState, new BaseLibrary()), so they take that first step here.
        dev.luavm.LuaVM.create();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                invocation.proceed();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "small-stack " + context.getDisplayName(), Long.parseLong(kib.trim()) << 10);
        t.start();
        t.join();
        Throwable e = failure.get();
        if (e instanceof Error && !(e instanceof AssertionError)) {
            // a Java error (StackOverflowError above all) reached the test: the host would get it too
            throw new AssertionError("a " + e.getClass().getName() + " reached the host on a " + kib + " KiB stack", e);
        }
        if (e != null) throw e;
    }
}

package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.LuaPatterns;
import dev.luavm.value.LuaString;

/**
 * The standard library's {@link PatternMatcher} offered as the {@link LuaPatterns} service (found
 * through {@link java.util.ServiceLoader}), for pattern constraints on host-function arguments.
 * An adapter only: it searches as {@code string.find} does (every start position unless the
 * pattern begins with {@code ^}), charging the pattern's bytes and every match step to the
 * caller's gas.
 */
public final class PatternFinder implements LuaPatterns {
    @Override
    public boolean find(CallContext c, LuaString subject, LuaString pattern) {
        c.chargeGas(ByteBuilder.gasForBytes(pattern.length()));
        byte[] pat = pattern.bytesUnsafe();
        boolean anchor = pat.length > 0 && pat[0] == '^';
        PatternMatcher m = new PatternMatcher(c, subject, pattern);
        int last = subject.length();
        int s = 0;
        try {
            do {
                if (m.matchAt(s, anchor ? 1 : 0) != PatternMatcher.NO_MATCH) return true;
            } while (s++ < last && !anchor);
            return false;
        } finally {
            m.flushGas();
        }
    }
}

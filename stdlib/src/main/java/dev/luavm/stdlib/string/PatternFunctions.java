package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;

/**
 * {@code string.find}, {@code match}, {@code gmatch} and {@code gsub}: the loops that drive a
 * {@link PatternMatcher} over the subject (str_find_aux, gmatch_aux and str_gsub in
 * {@code lstrlib.c}), anchoring, captures as results, and gsub's replacements.
 */
final class PatternFunctions {
    private PatternFunctions() {}

    static final Builtin FIND = new Builtin("string.find") { @Override public int call(CallContext c) { return findAux(c, true); } };
    static final Builtin MATCH = new Builtin("string.match") { @Override public int call(CallContext c) { return findAux(c, false); } };
    static final Builtin GMATCH = new Builtin("string.gmatch") { @Override public int call(CallContext c) { return PatternFunctions.gmatch(c); } };
    static final Builtin GSUB = new Builtin("string.gsub") { @Override public int call(CallContext c) { return PatternFunctions.gsub(c); } };

    /** The bytes that make a pattern more than a plain string (PUC's SPECIALS). */
    private static boolean isSpecial(byte b) {
        switch (b) {
            case '^': case '$': case '*': case '+': case '?': case '.': case '(': case '[': case '%': case '-':
                return true;
            default:
                return false;
        }
    }

    private static boolean noSpecials(LuaString p) {
        for (byte b : p.bytesUnsafe()) {
            if (isSpecial(b)) return false;
        }
        return true;
    }

    /** PUC's posrelat: a negative position counts back from the end; too negative gives 0. */
    static long posrelat(long pos, long len) {
        if (pos >= 0) return pos;
        if (pos < -len) return 0;
        return len + pos + 1;
    }

    private static int findAux(CallContext c, boolean find) {
        LuaString s = c.checkString(1);
        LuaString p = c.checkString(2);
        int ls = s.length();
        long init = posrelat(c.optInteger(3, 1), ls);
        if (init < 1) {
            init = 1;
        } else if (init > (long) ls + 1) {
            return c.ret(null); // starts after the end: cannot find anything
        }
        c.chargeGas(ByteBuilder.gasForBytes(p.length()));
        if (find && (c.toBoolean(4) || noSpecials(p))) {
            int at = plainFind(c, s, p, (int) init - 1);
            if (at < 0) return c.ret(null);
            return c.ret((long) at + 1, (long) at + p.length());
        }
        byte[] pat = p.bytesUnsafe();
        boolean anchor = pat.length > 0 && pat[0] == '^';
        int pstart = anchor ? 1 : 0;
        PatternMatcher m = new PatternMatcher(c, s, p);
        int s1 = (int) init - 1;
        do {
            int e = m.matchAt(s1, pstart);
            if (e != PatternMatcher.NO_MATCH) {
                m.flushGas();
                Object[] caps = m.captures(s1, e, !find);
                if (!find) return c.retArray(caps, caps.length);
                c.ensureResults(caps.length + 2);
                c.setResult(0, (long) s1 + 1);
                c.setResult(1, (long) e);
                for (int i = 0; i < caps.length; i++) c.setResult(i + 2, caps[i]);
                return caps.length + 2;
            }
        } while (s1++ < ls && !anchor);
        m.flushGas();
        return c.ret(null);
    }

    /** Index of {@code p} in {@code s} at or after {@code from}, or -1; charged per byte compared. */
    static int plainFind(CallContext c, LuaString s, LuaString p, int from) {
        byte[] a = s.bytesUnsafe();
        byte[] n = p.bytesUnsafe();
        if (n.length == 0) return from;
        int last = a.length - n.length;
        byte first = n[0];
        long compared = 0;
        try {
            outer:
            for (int i = from; i <= last; i++) {
                if ((++compared & 0xFFF) == 0) c.chargeGas(ByteBuilder.gasForBytes(0x1000));
                if (a[i] != first) continue;
                for (int j = 1; j < n.length; j++) {
                    if ((++compared & 0xFFF) == 0) c.chargeGas(ByteBuilder.gasForBytes(0x1000));
                    if (a[i + j] != n[j]) continue outer;
                }
                return i;
            }
            return -1;
        } finally {
            c.chargeGas(ByteBuilder.gasForBytes(compared & 0xFFF));
        }
    }

    // ---- gmatch

    private static int gmatch(CallContext c) {
        LuaString s = c.checkString(1);
        LuaString p = c.checkString(2);
        c.memory().charge(GmatchIterator.BYTES);
        return c.ret(new GmatchIterator(s, p));
    }

    /**
     * The function {@code gmatch} returns. Unlike the shared library builtins it has state (the
     * next position and the end of the last match), so every {@code gmatch} call makes its own.
     * As in PUC, {@code ^} is not an anchor here, and an empty match right after the previous
     * match is skipped. It holds its subject and pattern, so it reports them to the live-heap
     * walk: an iterator kept alive keeps its subject counted.
     */
    static final class GmatchIterator extends Builtin implements dev.luavm.lib.Persistent {
        /** what {@code gmatch} charges for one iterator: header, two references, two positions */
        static final long BYTES = Sizes.CLOSURE_HEADER + 4 * Sizes.REF;
        /** the kind a snapshot names an iterator by */
        static final String KIND = "string.gmatch";

        private final LuaString subject;
        private final LuaString pattern;
        private int next;
        private int lastMatch = -1;

        GmatchIterator(LuaString subject, LuaString pattern) {
            super("gmatch_aux");
            this.subject = subject;
            this.pattern = pattern;
        }

        @Override
        public void forEachReference(java.util.function.Consumer<Object> visitor) {
            visitor.accept(subject);
            visitor.accept(pattern);
        }

        @Override
        public long estimatedBytes() {
            return BYTES;
        }

        @Override
        public String persistKind() {
            return KIND;
        }

        /** Subject, pattern and position: a restored iterator goes on where this one is. */
        @Override
        public void persist(dev.luavm.lib.SnapshotOut out) {
            out.writeValue(subject);
            out.writeValue(pattern);
            out.writeVarint(next);
            out.writeVarint(lastMatch + 1L);
        }

        static GmatchIterator restore(dev.luavm.lib.SnapshotIn in) {
            if (!(in.readValue() instanceof LuaString s) || !(in.readValue() instanceof LuaString p)) {
                throw in.malformed("a gmatch iterator without its subject and pattern");
            }
            int next = (int) in.readVarint(s.length() + 1L);
            int last = (int) in.readVarint(s.length() + 1L) - 1;
            in.memory().charge(BYTES);
            GmatchIterator g = new GmatchIterator(s, p);
            g.next = next;
            g.lastMatch = last;
            return g;
        }

        @Override
        public int call(CallContext c) {
            PatternMatcher m = new PatternMatcher(c, subject, pattern);
            int end = subject.length();
            for (int src = next; src <= end; src++) {
                int e = m.matchAt(src, 0);
                if (e != PatternMatcher.NO_MATCH && e != lastMatch) {
                    next = lastMatch = e;
                    m.flushGas();
                    Object[] caps = m.captures(src, e, true);
                    return c.retArray(caps, caps.length);
                }
            }
            next = end + 1; // exhausted: later calls find nothing at once
            m.flushGas();
            return 0;
        }
    }

    // ---- gsub

    private static int gsub(CallContext c) {
        LuaString src = c.checkString(1);
        LuaString p = c.checkString(2);
        Object repl = c.arg(3);
        int srcl = src.length();
        long maxS = c.optInteger(4, (long) srcl + 1);
        LuaString replString = null;
        if (repl instanceof LuaString rs) {
            replString = rs;
        } else if (repl instanceof Long l) {
            replString = LuaNumbers.toLuaString(l);
        } else if (repl instanceof Double d) {
            replString = LuaNumbers.toLuaString(d);
        } else if (!(repl instanceof LuaFunction || repl instanceof LuaTable) || c.nargs() < 3) {
            throw c.argError(3, "string/function/table expected");
        }
        c.chargeGas(ByteBuilder.gasForBytes(p.length()));
        byte[] s = src.bytesUnsafe();
        byte[] pat = p.bytesUnsafe();
        boolean anchor = pat.length > 0 && pat[0] == '^';
        int pstart = anchor ? 1 : 0;
        PatternMatcher m = new PatternMatcher(c, src, p);
        ByteBuilder b = new ByteBuilder(c, srcl);
        int si = 0;
        int lastMatch = -1;
        long n = 0;
        while (n < maxS) {
            int e = m.matchAt(si, pstart);
            if (e != PatternMatcher.NO_MATCH && e != lastMatch) {
                n++;
                if (replString != null) addString(m, b, replString, si, e);
                else addValue(c, m, b, repl, s, si, e);
                si = lastMatch = e;
            } else if (si < srcl) {
                b.append(s[si++]);
            } else {
                break;
            }
            if (anchor) break;
        }
        b.append(s, si, srcl);
        m.flushGas();
        LuaString result = b.toLuaString();
        return c.ret(result, n);
    }

    /** A replacement string: {@code %0}-{@code %9} insert captures, {@code %%} a percent sign. */
    private static void addString(PatternMatcher m, ByteBuilder b, LuaString repl, int s, int e) {
        byte[] r = repl.bytesUnsafe();
        int l = r.length;
        m.addSteps(ByteBuilder.gasForBytes(l));
        for (int i = 0; i < l; i++) {
            byte ch = r[i];
            if (ch != '%') {
                b.append(ch);
                continue;
            }
            i++;
            int d = i < l ? r[i] & 0xFF : 0;
            if (!CType.isDigit(d)) {
                if (d != '%') throw m.callError("invalid use of '%' in replacement string");
                b.append(d);
            } else if (d == '0') {
                b.append(m.subject(), s, e);
            } else {
                m.appendCapture(b, d - '1', s, e);
            }
        }
    }

    /** A function or table replacement; false or nil keeps the original text. */
    private static void addValue(CallContext c, PatternMatcher m, ByteBuilder b, Object repl, byte[] src, int s, int e) {
        Object v;
        if (repl instanceof LuaTable) {
            v = c.index(repl, m.capture(0, s, e));
        } else {
            Object[] caps = m.captures(s, e, true);
            m.flushGas();
            v = c.call1(repl, caps);
        }
        if (!LuaValues.isTruthy(v)) {
            b.append(src, s, e);
        } else if (v instanceof LuaString str) {
            b.append(str);
        } else if (v instanceof Long l) {
            b.append(LuaNumbers.toLuaString(l));
        } else if (v instanceof Double d) {
            b.append(LuaNumbers.toLuaString(d));
        } else {
            throw c.error("invalid replacement value (a " + LuaValues.typeName(v) + ")");
        }
    }
}

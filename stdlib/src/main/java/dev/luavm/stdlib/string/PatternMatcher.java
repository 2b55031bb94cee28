package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

/**
 * The Lua 5.3 pattern matcher: one match attempt of a pattern against a byte string at a
 * given position, with the captures it records.
 *
 * <h2>What a pattern is</h2>
 * A pattern is a sequence of <em>items</em>. A single-character class ({@code x}, {@code .},
 * {@code %a}, {@code [set]}, {@code [^set]}) may be followed by a quantifier: {@code *}
 * (greedy, zero or more), {@code +} (greedy, one or more), {@code -} (lazy, zero or more) or
 * {@code ?} (optional). The other items are {@code (} and {@code )} (open and close a capture;
 * {@code ()} captures a position), {@code %1}-{@code %9} (the text of an earlier closed
 * capture), {@code %bxy} (a balanced run from {@code x} to the matching {@code y}),
 * {@code %f[set]} (a frontier: the previous byte is not in the set and the current one is; the
 * subject is treated as bounded by {@code \0} on both sides) and a final {@code $} (end of
 * subject). A leading {@code ^} anchors the match; it is the caller's business (see
 * {@link PatternFunctions}), as in PUC, so {@code gmatch} treats it as a literal. Classes use
 * the C locale ({@link CType}): bytes above 127 are never letters.
 *
 * <h2>How it matches</h2>
 * This is PUC-Rio's backtracking matcher ({@code lstrlib.c}), the same algorithm rather than a
 * line-by-line translation: positions are {@code int} indices into the subject and pattern
 * arrays, and "no match" is {@link #NO_MATCH}. {@link #match} walks the pattern item by item,
 * looping for the cases PUC handles with {@code goto init} (a single item without quantifier,
 * {@code %b}, {@code %f}, back-references, an empty alternative of {@code ?}/{@code *}), and
 * recursing where the rest of the pattern must be tried from several subject positions: the
 * greedy quantifiers try the longest run first and give back one byte at a time, {@code -}
 * tries the shortest first, and captures recurse so they can be undone when the rest fails.
 * Where C reads the {@code '\0'} that terminates every Lua string (the byte after the end of
 * the pattern or the subject), this code reads 0 through {@link #patAt} and {@link #srcAt}, so
 * the corner cases ({@code %f[%z]} at the end, {@code [a-} errors) come out the same.
 *
 * <h2>Limits (threat T9)</h2>
 * <ul>
 *   <li><b>Depth.</b> Recursion is bounded by {@link #MAXCCALLS} = 200 nested {@code match}
 *       calls ("pattern too complex"), as PUC's {@code matchdepth}; each level costs a few Java
 *       frames, far below a default Java stack. On a host thread with a small stack (128 KiB)
 *       the stack may run out first: that is "pattern too complex" too.</li>
 *   <li><b>Captures.</b> At most {@link #MAXCAPTURES} = 32 ("too many captures").</li>
 *   <li><b>Time.</b> Backtracking is exponential in the worst case ({@code ("a"):rep(30) ..
 *       "b"} against {@code ("a*"):rep(30) .. "c"}), so every step is charged as gas: each
 *       entry into {@code match} (every backtrack re-enters it), each single-byte test, each
 *       element of a set scanned, each byte compared by a back-reference or scanned by
 *       {@code %b}. Steps are counted in a field and charged in batches of
 *       {@value #GAS_BATCH}, so the meter stops a runaway match within one batch; callers
 *       call {@link #flushGas()} when they finish.</li>
 * </ul>
 *
 * <p>A matcher belongs to one library call (or one step of a {@code gmatch} iterator) and is
 * not shared: it holds the call's {@link CallContext} for gas and errors.
 */
final class PatternMatcher {
    /** Returned by the match functions when the pattern does not match. */
    static final int NO_MATCH = -1;
    /** Maximum nesting of {@code match} calls (PUC's MAXCCALLS). */
    static final int MAXCCALLS = 200;
    /** Maximum number of captures (PUC's LUA_MAXCAPTURES). */
    static final int MAXCAPTURES = 32;
    /** Match steps counted before gas is charged. */
    static final int GAS_BATCH = 256;

    private static final int CAP_UNFINISHED = -1;
    private static final int CAP_POSITION = -2;
    private static final int L_ESC = '%';

    private final CallContext c;
    private final byte[] src;
    private final int srcEnd;
    private final byte[] pat;
    private final int patEnd;

    /** number of captures, finished or not */
    private int level;
    private final int[] capInit = new int[MAXCAPTURES];
    /** capture length, or CAP_UNFINISHED / CAP_POSITION */
    private final int[] capLen = new int[MAXCAPTURES];
    /** remaining nesting allowed */
    private int depth;
    /** steps not yet charged */
    private long steps;

    PatternMatcher(CallContext c, LuaString subject, LuaString pattern) {
        this.c = c;
        this.src = subject.bytesUnsafe();
        this.srcEnd = src.length;
        this.pat = pattern.bytesUnsafe();
        this.patEnd = pat.length;
    }

    /**
     * Matches the pattern from index {@code p} against the subject from index {@code s},
     * forgetting earlier captures. Returns the end of the match or {@link #NO_MATCH}.
     */
    int matchAt(int s, int p) {
        level = 0;
        depth = MAXCCALLS;
        try {
            return match(s, p);
        } catch (StackOverflowError e) {
            // a host thread with a small stack runs out before MAXCCALLS levels: the same error
            throw error("pattern too complex");
        }
    }

    /** Charges the steps counted so far. */
    void flushGas() {
        if (steps > 0) {
            c.chargeGas(steps);
            steps = 0;
        }
    }

    /** Counts {@code n} units of work done on behalf of this match (e.g. replacement text). */
    void addSteps(long n) {
        if (n >= GAS_BATCH) {
            flushGas();
            c.chargeGas(n);
        } else {
            steps += n;
            if (steps >= GAS_BATCH) flushGas();
        }
    }

    private void step() {
        if (++steps >= GAS_BATCH) flushGas();
    }

    private int patAt(int i) {
        return i < patEnd ? pat[i] & 0xFF : 0;
    }

    private int srcAt(int i) {
        return i < srcEnd ? src[i] & 0xFF : 0;
    }

    private LuaError error(String message) {
        return c.error(message);
    }

    /** A {@code luaL_error} raised on behalf of the calling library function. */
    LuaError callError(String message) {
        return c.error(message);
    }

    /** The subject's bytes (read-only). */
    byte[] subject() {
        return src;
    }

    // ---- the matcher

    private int match(int s, int p) {
        if (depth-- == 0) throw error("pattern too complex");
        int r = matchItems(s, p);
        depth++;
        return r;
    }

    private int matchItems(int s, int p) {
        for (;;) {
            step();
            if (p == patEnd) return s;
            int ch = pat[p] & 0xFF;
            if (ch == '(') {
                return patAt(p + 1) == ')'
                        ? startCapture(s, p + 2, CAP_POSITION)
                        : startCapture(s, p + 1, CAP_UNFINISHED);
            }
            if (ch == ')') return endCapture(s, p + 1);
            if (ch == '$' && p + 1 == patEnd) return s == srcEnd ? s : NO_MATCH;
            if (ch == L_ESC) {
                int next = patAt(p + 1);
                if (next == 'b') {
                    s = matchBalance(s, p + 2);
                    if (s == NO_MATCH) return NO_MATCH;
                    p += 4;
                    continue;
                }
                if (next == 'f') {
                    p += 2;
                    if (patAt(p) != '[') throw error("missing '[' after '%f' in pattern");
                    int ep = classEnd(p);
                    int previous = s == 0 ? 0 : src[s - 1] & 0xFF;
                    if (!matchBracketClass(previous, p, ep - 1) && matchBracketClass(srcAt(s), p, ep - 1)) {
                        p = ep;
                        continue;
                    }
                    return NO_MATCH;
                }
                if (CType.isDigit(next)) {
                    s = matchCapture(s, next);
                    if (s == NO_MATCH) return NO_MATCH;
                    p += 2;
                    continue;
                }
            }
            // a single-character class with an optional quantifier
            int ep = classEnd(p);
            int suffix = patAt(ep);
            if (!singleMatch(s, p, ep)) {
                if (suffix == '*' || suffix == '?' || suffix == '-') {
                    p = ep + 1; // the empty alternative
                    continue;
                }
                return NO_MATCH;
            }
            switch (suffix) {
                case '?': {
                    int r = match(s + 1, ep + 1);
                    if (r != NO_MATCH) return r;
                    p = ep + 1;
                    continue;
                }
                case '+':
                    return maxExpand(s + 1, p, ep);
                case '*':
                    return maxExpand(s, p, ep);
                case '-':
                    return minExpand(s, p, ep);
                default:
                    s++;
                    p = ep;
            }
        }
    }

    /** Greedy: the longest run of the class first, then one byte shorter at a time. */
    private int maxExpand(int s, int p, int ep) {
        int i = 0;
        while (singleMatch(s + i, p, ep)) {
            i++;
            step();
        }
        for (; i >= 0; i--) {
            int r = match(s + i, ep + 1);
            if (r != NO_MATCH) return r;
        }
        return NO_MATCH;
    }

    /** Lazy: the rest of the pattern first, then one more byte of the class. */
    private int minExpand(int s, int p, int ep) {
        for (;;) {
            int r = match(s, ep + 1);
            if (r != NO_MATCH) return r;
            if (!singleMatch(s, p, ep)) return NO_MATCH;
            s++;
        }
    }

    private int startCapture(int s, int p, int what) {
        if (level >= MAXCAPTURES) throw error("too many captures");
        capInit[level] = s;
        capLen[level] = what;
        level++;
        int r = match(s, p);
        if (r == NO_MATCH) level--;
        return r;
    }

    private int endCapture(int s, int p) {
        int l = captureToClose();
        capLen[l] = s - capInit[l];
        int r = match(s, p);
        if (r == NO_MATCH) capLen[l] = CAP_UNFINISHED;
        return r;
    }

    private int captureToClose() {
        for (int l = level - 1; l >= 0; l--) {
            if (capLen[l] == CAP_UNFINISHED) return l;
        }
        throw error("invalid pattern capture");
    }

    /** {@code %1}-{@code %9} in a pattern: the same bytes as that capture. */
    private int matchCapture(int s, int digit) {
        int l = checkCapture(digit);
        int len = capLen[l];
        if (len < 0) return NO_MATCH; // a position capture: PUC compares a huge size_t length
        addSteps(ByteBuilder.gasForBytes(len)); // byte work: 1 per 8 bytes compared
        if (srcEnd - s >= len && java.util.Arrays.equals(src, capInit[l], capInit[l] + len, src, s, s + len)) {
            return s + len;
        }
        return NO_MATCH;
    }

    private int checkCapture(int digit) {
        int l = digit - '1';
        if (l < 0 || l >= level || capLen[l] == CAP_UNFINISHED) {
            throw error("invalid capture index %" + (l + 1));
        }
        return l;
    }

    /** {@code %bxy} with {@code p} at x. */
    private int matchBalance(int s, int p) {
        if (p >= patEnd - 1) throw error("malformed pattern (missing arguments to '%b')");
        if (s >= srcEnd || src[s] != pat[p]) return NO_MATCH;
        byte open = pat[p];
        byte close = pat[p + 1];
        int cont = 1;
        while (++s < srcEnd) {
            step();
            byte b = src[s];
            if (b == close) {
                if (--cont == 0) return s + 1;
            } else if (b == open) {
                cont++;
            }
        }
        return NO_MATCH;
    }

    // ---- single-character classes

    /** The index just past the class that starts at {@code p}. */
    private int classEnd(int p) {
        int start = p;
        int ch = pat[p++] & 0xFF;
        if (ch == L_ESC) {
            if (p == patEnd) throw error("malformed pattern (ends with '%')");
            return p + 1;
        }
        if (ch == '[') {
            if (patAt(p) == '^') p++;
            do { // look for the ']'; the first byte of the set is never the end
                if (p == patEnd) throw error("malformed pattern (missing ']')");
                if (pat[p++] == L_ESC && p < patEnd) p++; // skip escapes such as '%]'
            } while (patAt(p) != ']');
            addSteps(p - start);
            return p + 1;
        }
        return p;
    }

    /** Does subject byte {@code s} match the class {@code pat[p, ep)}? False at the end. */
    private boolean singleMatch(int s, int p, int ep) {
        if (s >= srcEnd) return false;
        int ch = src[s] & 0xFF;
        switch (pat[p]) {
            case '.':
                return true;
            case L_ESC:
                return matchClass(ch, pat[p + 1] & 0xFF);
            case '[':
                return matchBracketClass(ch, p, ep - 1);
            default:
                return (pat[p] & 0xFF) == ch;
        }
    }

    /** {@code %cl}: a letter names a class (upper case: its complement); anything else is itself. */
    static boolean matchClass(int ch, int cl) {
        boolean res;
        switch (CType.toLower(cl)) {
            case 'a': res = CType.isAlpha(ch); break;
            case 'c': res = CType.isCntrl(ch); break;
            case 'd': res = CType.isDigit(ch); break;
            case 'g': res = CType.isGraph(ch); break;
            case 'l': res = CType.isLower(ch); break;
            case 'p': res = CType.isPunct(ch); break;
            case 's': res = CType.isSpace(ch); break;
            case 'u': res = CType.isUpper(ch); break;
            case 'w': res = CType.isAlnum(ch); break;
            case 'x': res = CType.isXDigit(ch); break;
            case 'z': res = ch == 0; break; // deprecated
            default: return cl == ch;
        }
        return CType.isLower(cl) == res;
    }

    /** {@code [set]} from {@code p} (at '[') to {@code ec} (at the closing ']'). */
    private boolean matchBracketClass(int ch, int p, int ec) {
        int start = p;
        boolean sig = true;
        if (patAt(p + 1) == '^') {
            sig = false;
            p++;
        }
        boolean found = false;
        while (++p < ec) {
            int pc = pat[p] & 0xFF;
            if (pc == L_ESC) {
                p++;
                if (matchClass(ch, pat[p] & 0xFF)) { found = true; break; }
            } else if (patAt(p + 1) == '-' && p + 2 < ec) {
                p += 2;
                if ((pat[p - 2] & 0xFF) <= ch && ch <= (pat[p] & 0xFF)) { found = true; break; }
            } else if (pc == ch) {
                found = true;
                break;
            }
        }
        steps += p - start; // one step per set byte scanned; charged at the next step()
        return found == sig;
    }

    // ---- captures, for the callers

    /** Number of captures recorded by the last successful match. */
    int level() {
        return level;
    }

    /**
     * Capture {@code i} (0-based) of the match {@code [s, e)}: a string, or an integer for a
     * position capture. With no captures, capture 0 is the whole match.
     */
    Object capture(int i, int s, int e) {
        if (i >= level) {
            if (i != 0) throw error("invalid capture index %" + (i + 1));
            return ByteBuilder.substring(c, src, s, e);
        }
        int l = capLen[i];
        if (l == CAP_UNFINISHED) throw error("unfinished capture");
        if (l == CAP_POSITION) return (long) capInit[i] + 1;
        return ByteBuilder.substring(c, src, capInit[i], capInit[i] + l);
    }

    /** Appends capture {@code i} as {@link #capture} defines it, converted to text, without a temporary string. */
    void appendCapture(ByteBuilder b, int i, int s, int e) {
        if (i >= level) {
            if (i != 0) throw error("invalid capture index %" + (i + 1));
            b.append(src, s, e);
            return;
        }
        int l = capLen[i];
        if (l == CAP_UNFINISHED) throw error("unfinished capture");
        if (l == CAP_POSITION) b.appendAscii(Long.toString((long) capInit[i] + 1));
        else b.append(src, capInit[i], capInit[i] + l);
    }

    /**
     * All captures of the match {@code [s, e)}; with none, the whole match when
     * {@code wholeIfNone} (match, gmatch, gsub), nothing otherwise (find).
     */
    Object[] captures(int s, int e, boolean wholeIfNone) {
        int n = (level == 0 && wholeIfNone) ? 1 : level;
        Object[] r = new Object[n];
        for (int i = 0; i < n; i++) r[i] = capture(i, s, e);
        return r;
    }
}

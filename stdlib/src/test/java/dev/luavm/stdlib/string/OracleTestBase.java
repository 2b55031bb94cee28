package dev.luavm.stdlib.string;

import dev.luavm.stdlib.TestContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Cases whose expectations were computed by PUC-Rio Lua 5.3.6 (see
 * {@code src/test/oracle/gen_string_oracle.lua}): each {@code check} calls one function with
 * the given arguments and compares the rendered results (or {@code error: message}) with what
 * the reference printed. Rendering: strings quoted with {@code \ddd} for non-printable bytes,
 * integers in decimal, floats as {@code f:%.17g}, then booleans and nil.
 */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
abstract class OracleTestBase {
    static final Builtin LEN = StringLibrary.LEN, SUB = StringLibrary.SUB, UPPER = StringLibrary.UPPER,
            LOWER = StringLibrary.LOWER, REP = StringLibrary.REP, REVERSE = StringLibrary.REVERSE,
            BYTE = StringLibrary.BYTE, CHAR = StringLibrary.CHAR, FIND = PatternFunctions.FIND,
            MATCH = PatternFunctions.MATCH, GSUB = PatternFunctions.GSUB, GMATCH = PatternFunctions.GMATCH,
            FORMAT = StringFormat.FORMAT, PACK = StringPack.PACK, UNPACK = StringPack.UNPACK,
            PACKSIZE = StringPack.PACKSIZE;

    private final List<DynamicTest> tests = new ArrayList<>();

    /** Declares the cases with {@link #check} and {@link #checkGmatch}. */
    protected abstract void cases();

    @TestFactory
    List<DynamicTest> oracle() {
        cases();
        return tests;
    }

    static LuaString s(String latin1) {
        return LuaString.wrap(latin1.getBytes(StandardCharsets.ISO_8859_1));
    }

    void check(Builtin f, String expected, Object... args) {
        String name = f.name + Arrays.toString(Arrays.stream(args).map(OracleTestBase::render).toArray());
        if (name.length() > 120) name = name.substring(0, 117) + "...";
        tests.add(DynamicTest.dynamicTest(name, () -> assertEquals(expected, call(f, args))));
    }

    void checkGmatch(String expected, Object subject, Object pattern) {
        tests.add(DynamicTest.dynamicTest("gmatch(" + render(subject) + ", " + render(pattern) + ")",
                () -> assertEquals(expected, gmatch(subject, pattern))));
    }

    static String call(Builtin f, Object... args) {
        try {
            return render(new TestContext(f, args).run());
        } catch (LuaError e) {
            return "error: " + e.getMessage();
        }
    }

    static String gmatch(Object subject, Object pattern) {
        try {
            Builtin iterator = (Builtin) new TestContext(GMATCH, subject, pattern).run()[0];
            StringJoiner parts = new StringJoiner(" | ");
            for (int n = 0; n <= 50; n++) {
                Object[] r = new TestContext(iterator).run();
                if (r.length == 0 || r[0] == null) break;
                parts.add(render(r));
            }
            return parts.toString();
        } catch (LuaError e) {
            return "error: " + e.getMessage();
        }
    }

    static String render(Object[] values) {
        StringJoiner j = new StringJoiner(" ");
        for (Object v : values) j.add(render(v));
        return j.toString();
    }

    static String render(Object v) {
        if (v instanceof LuaString s) {
            StringBuilder sb = new StringBuilder("\"");
            for (byte b : s.bytesUnsafe()) {
                int c = b & 0xFF;
                if (c == '\\' || c == '"') sb.append('\\').append((char) c);
                else if (c >= 32 && c <= 126) sb.append((char) c);
                else sb.append(String.format("\\%03d", c));
            }
            return sb.append('"').toString();
        }
        if (v instanceof Double d) return "f:" + LuaNumbers.formatG(d, 17, false);
        if (v == null) return "nil";
        return v.toString();
    }
}

package dev.luavm.compiler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lexical, syntax and semantic (goto/label) errors, compared with what PUC-Rio Lua 5.3 gives
 * for {@code load(source)} (chunk name = the source itself). The expected strings were
 * produced by lua5.3 when this test was written; "OK" means the source compiles.
 */
class SyntaxErrorTest {

    /** Compiles {@code source} (bytes = Latin-1 chars) the way load(source) does; "OK" or the message. */
    static String compileMessage(String source, String chunkName) {
        try {
            LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), chunkName);
            return "OK";
        } catch (LuaError e) {
            return ((LuaString) e.value()).toLatin1();
        }
    }

    static Stream<Arguments> cases() {
        String[][] cases = {
            {"x = = 1", "[string \"x = = 1\"]:1: unexpected symbol near '='"},
            {"x = 3x", "[string \"x = 3x\"]:1: syntax error near <eof>"},
            {"x = 0x", "[string \"x = 0x\"]:1: malformed number near '0x'"},
            {"x = 1e", "[string \"x = 1e\"]:1: malformed number near '1e'"},
            {"x = 3..2", "[string \"x = 3..2\"]:1: malformed number near '3..2'"},
            {"x = 1f", "[string \"x = 1f\"]:1: malformed number near '1f'"},
            {"x = \"abc", "[string \"x = \"abc\"]:1: unfinished string near <eof>"},
            {"x = \"abc\ny\"", "[string \"x = \"abc...\"]:1: unfinished string near '\"abc'"},
            {"x = 'a\\qb'", "[string \"x = 'a\\qb'\"]:1: invalid escape sequence near ''a\\q'"},
            {"x = [[abc", "[string \"x = [[abc\"]:1: unfinished long string (starting at line 1) near <eof>"},
            {"--[[abc", "[string \"--[[abc\"]:1: unfinished long comment (starting at line 1) near <eof>"},
            {"x = [==x", "[string \"x = [==x\"]:1: invalid long string delimiter near '[=='"},
            {"x = '\\300'", "[string \"x = '\\300'\"]:1: decimal escape too large near ''\\300''"},
            {"x = '\\u{110000}'", "[string \"x = '\\u{110000}'\"]:1: UTF-8 value too large near ''\\u{110000'"},
            {"x = '\\xg'", "[string \"x = '\\xg'\"]:1: hexadecimal digit expected near ''\\xg'"},
            {"x = '\\u{12'", "[string \"x = '\\u{12'\"]:1: missing '}' near ''\\u{12''"},
            {"x = '\\u12'", "[string \"x = '\\u12'\"]:1: missing '{' near ''\\u1'"},
            {"x = \001", "[string \"x = \001\"]:1: unexpected symbol near '<\\1>'"},
            {"x = @", "[string \"x = @\"]:1: unexpected symbol near '@'"},
            {"x = '\\65\\q'", "[string \"x = '\\65\\q'\"]:1: invalid escape sequence near ''A\\q'"},
            {"x = 1 \"a\\tb\"", "[string \"x = 1 \"a\\tb\"\"]:1: unexpected symbol near '\"a\011b\"'"},
            {"goto = 1", "[string \"goto = 1\"]:1: <name> expected near '='"},
            {"break", "[string \"break\"]:1: <break> at line 1 not inside a loop"},
            {"goto x", "[string \"goto x\"]:1: no visible label 'x' for <goto> at line 1"},
            {"do goto x end ::x::", "OK"},
            {"do local a goto x local b ::x:: print(b) end", "[string \"do local a goto x local b ::x:: print(b) end\"]:1: <goto x> at line 1 jumps into the scope of local 'b'"},
            {"::a:: ::a::", "[string \"::a:: ::a::\"]:1: label 'a' already defined on line 1"},
            {"for i=1 do end", "[string \"for i=1 do end\"]:1: ',' expected near 'do'"},
            {"for a b", "[string \"for a b\"]:1: '=' or 'in' expected near 'b'"},
            {"function f(a,) end", "[string \"function f(a,) end\"]:1: <name> or '...' expected near ')'"},
            {"local x <const> = 1", "[string \"local x <const> = 1\"]:1: unexpected symbol near '<'"},
            {"f() = 1", "[string \"f() = 1\"]:1: syntax error near '='"},
            {"x", "[string \"x\"]:1: syntax error near <eof>"},
            {"x y", "[string \"x y\"]:1: syntax error near 'y'"},
            {"(a) = 1", "[string \"(a) = 1\"]:1: syntax error near '='"},
            {"a.b:c = 1", "[string \"a.b:c = 1\"]:1: function arguments expected near '='"},
            {"return 1 x = 2", "[string \"return 1 x = 2\"]:1: <eof> expected near 'x'"},
            {"x = }", "[string \"x = }\"]:1: unexpected symbol near '}'"},
            {"x = (1", "[string \"x = (1\"]:1: ')' expected near <eof>"},
            {"x = (1\n\n", "[string \"x = (1...\"]:3: ')' expected (to close '(' at line 1) near <eof>"},
            {"f(\n1", "[string \"f(...\"]:2: ')' expected (to close '(' at line 1) near <eof>"},
            {"function f()\n", "[string \"function f()...\"]:2: 'end' expected (to close 'function' at line 1) near <eof>"},
            {"if x then", "[string \"if x then\"]:1: 'end' expected near <eof>"},
            {"x = {1 2}", "[string \"x = {1 2}\"]:1: '}' expected near '2'"},
            {"x = ...", "OK"},
            {"function f() return ... end", "[string \"function f() return ... end\"]:1: cannot use '...' outside a vararg function near '...'"},
            {"local function 1", "[string \"local function 1\"]:1: <name> expected near '1'"},
            {"a.1 = 2", "[string \"a.1 = 2\"]:1: syntax error near '.1'"},
            {"x = f:g", "[string \"x = f:g\"]:1: function arguments expected near <eof>"},
            {"x = 0x1p", "[string \"x = 0x1p\"]:1: malformed number near '0x1p'"},
            {"x = .5e", "[string \"x = .5e\"]:1: malformed number near '.5e'"},
            {"x = 1..2", "[string \"x = 1..2\"]:1: malformed number near '1..2'"},
            {"::x", "[string \"::x\"]:1: '::' expected near <eof>"},
            {"goto 1", "[string \"goto 1\"]:1: <name> expected near '1'"},
            {"repeat local x until y ::l::", "OK"},
            {"while x do", "[string \"while x do\"]:1: 'end' expected near <eof>"},
            {"x = 9223372036854775808", "OK"},
            {"x = -", "[string \"x = -\"]:1: unexpected symbol near <eof>"},
            {"do local x; goto l; local y; ::l:: end", "OK"},
            {"goto l; local a; ::l:: ;;", "OK"},
            {"repeat goto l; local a; ::l:: until a", "[string \"repeat goto l; local a; ::l:: until a\"]:1: <goto l> at line 1 jumps into the scope of local 'a'"},
            {"while true do break end break", "[string \"while true do break end break\"]:1: <break> at line 1 not inside a loop"},
            {"for i = 1, 2 do local x = function() return i end goto c; ::c:: end", "OK"},
            {"local a = {} a.b.c = = 2", "[string \"local a = {} a.b.c = = 2\"]:1: unexpected symbol near '='"},
            {"x = 'abc\\", "[string \"x = 'abc\\\"]:1: unfinished string near <eof>"},
            {"x = \"\\z  \n  abc", "[string \"x = \"\\z  ...\"]:2: unfinished string near <eof>"},
            {"x = '\\x4'", "[string \"x = '\\x4'\"]:1: hexadecimal digit expected near ''\\x4''"},
            {"x = '\\u{}'", "[string \"x = '\\u{}'\"]:1: hexadecimal digit expected near ''\\u{}'"},
            {"x = [=[ a ]]", "[string \"x = [=[ a ]]\"]:1: unfinished long string (starting at line 1) near <eof>"},
            {"x = #", "[string \"x = #\"]:1: unexpected symbol near <eof>"},
            {"f(", "[string \"f(\"]:1: unexpected symbol near <eof>"},
            {"f(a,", "[string \"f(a,\"]:1: unexpected symbol near <eof>"},
            {"f{", "[string \"f{\"]:1: unexpected symbol near <eof>"},
            {"t = {[1] 2}", "[string \"t = {[1] 2}\"]:1: '=' expected near '2'"},
            {"t = {x = }", "[string \"t = {x = }\"]:1: unexpected symbol near '}'"},
            {"local", "[string \"local\"]:1: <name> expected near <eof>"},
            {"local 1", "[string \"local 1\"]:1: <name> expected near '1'"},
            {"function", "[string \"function\"]:1: <name> expected near <eof>"},
            {"function a.", "[string \"function a.\"]:1: <name> expected near <eof>"},
            {"function a:b.c() end", "[string \"function a:b.c() end\"]:1: '(' expected near '.'"},
            {"function a:", "[string \"function a:\"]:1: <name> expected near <eof>"},
            {"if", "[string \"if\"]:1: unexpected symbol near <eof>"},
            {"if x", "[string \"if x\"]:1: 'then' expected near <eof>"},
            {"if x then else", "[string \"if x then else\"]:1: 'end' expected near <eof>"},
            {"if x then elseif", "[string \"if x then elseif\"]:1: unexpected symbol near <eof>"},
            {"while", "[string \"while\"]:1: unexpected symbol near <eof>"},
            {"for", "[string \"for\"]:1: <name> expected near <eof>"},
            {"for i", "[string \"for i\"]:1: '=' or 'in' expected near <eof>"},
            {"for i =", "[string \"for i =\"]:1: unexpected symbol near <eof>"},
            {"for i = 1", "[string \"for i = 1\"]:1: ',' expected near <eof>"},
            {"for i = 1,", "[string \"for i = 1,\"]:1: unexpected symbol near <eof>"},
            {"for i = 1, 2", "[string \"for i = 1, 2\"]:1: 'do' expected near <eof>"},
            {"for i = 1, 2 do", "[string \"for i = 1, 2 do\"]:1: 'end' expected near <eof>"},
            {"for a, in t do end", "[string \"for a, in t do end\"]:1: <name> expected near 'in'"},
            {"for a, b in", "[string \"for a, b in\"]:1: unexpected symbol near <eof>"},
            {"repeat", "[string \"repeat\"]:1: 'until' expected near <eof>"},
            {"repeat until", "[string \"repeat until\"]:1: unexpected symbol near <eof>"},
            {"return return", "[string \"return return\"]:1: unexpected symbol near 'return'"},
            {"return 1,", "[string \"return 1,\"]:1: unexpected symbol near <eof>"},
            {"x = 1 + ", "[string \"x = 1 + \"]:1: unexpected symbol near <eof>"},
            {"x = not", "[string \"x = not\"]:1: unexpected symbol near <eof>"},
            {"a, b", "[string \"a, b\"]:1: '=' expected near <eof>"},
            {"a, b =", "[string \"a, b =\"]:1: unexpected symbol near <eof>"},
            {"a, f() = 1, 2", "[string \"a, f() = 1, 2\"]:1: syntax error near '='"},
            {"a.b", "[string \"a.b\"]:1: syntax error near <eof>"},
            {"a[1]", "[string \"a[1]\"]:1: syntax error near <eof>"},
            {"a:b()", "OK"},
            {"a:b", "[string \"a:b\"]:1: function arguments expected near <eof>"},
            {"x = function", "[string \"x = function\"]:1: '(' expected near <eof>"},
            {"x = function(", "[string \"x = function(\"]:1: <name> or '...' expected near <eof>"},
            {"x = function(a", "[string \"x = function(a\"]:1: ')' expected near <eof>"},
            {"x = function(...,a) end", "[string \"x = function(...,a) end\"]:1: ')' expected near ','"},
            {"x = {...}", "OK"},
            {"x = a.", "[string \"x = a.\"]:1: <name> expected near <eof>"},
            {"x = a[", "[string \"x = a[\"]:1: unexpected symbol near <eof>"},
            {"x = a[1", "[string \"x = a[1\"]:1: ']' expected near <eof>"},
            {"x = (", "[string \"x = (\"]:1: unexpected symbol near <eof>"},
            {"::", "[string \"::\"]:1: <name> expected near <eof>"},
            {":: ::", "[string \":: ::\"]:1: <name> expected near '::'"},
            {"::a:: ::b:: ::a::", "[string \"::a:: ::b:: ::a::\"]:1: label 'a' already defined on line 1"},
            {"goto a; goto b; ::a::", "[string \"goto a; goto b; ::a::\"]:1: no visible label 'b' for <goto> at line 1"},
            {"local a <close> = 1", "[string \"local a <close> = 1\"]:1: unexpected symbol near '<'"},
            {"x = 1 // 0 y", "[string \"x = 1 // 0 y\"]:1: syntax error near <eof>"},
            {"x = ~", "[string \"x = ~\"]:1: unexpected symbol near <eof>"},
            {"x = 1 ~= 2 ~", "[string \"x = 1 ~= 2 ~\"]:1: unexpected symbol near <eof>"},
            {"\357\273\277x = 1", "[string \"\357\273\277x = 1\"]:1: unexpected symbol near '<\\239>'"},
            {"x = '\\\n'", "OK"},
            {"x = '\015'", "[string \"x = '\015'\"]:1: unfinished string near '''"},
            {"x = 'a\000b' y", "[string \"x = 'a\"]:1: syntax error near <eof>"},
            {"x = 0x.p1", "[string \"x = 0x.p1\"]:1: malformed number near '0x.p1'"},
            {"x = 0xg", "[string \"x = 0xg\"]:1: malformed number near '0x'"},
            {"x = 08", "OK"},
            {"x = 1e+", "[string \"x = 1e+\"]:1: malformed number near '1e+'"},
            {"x = 1.2.3", "[string \"x = 1.2.3\"]:1: malformed number near '1.2.3'"},
            {"x = 5 y = 6 z", "[string \"x = 5 y = 6 z\"]:1: syntax error near <eof>"},
            {"x = [[\n\n", "[string \"x = [[...\"]:3: unfinished long string (starting at line 1) near <eof>"},
            {"x = [==[\n]=]\n", "[string \"x = [==[...\"]:3: unfinished long string (starting at line 1) near <eof>"},
            {"--[==[\n\n]=]", "[string \"--[==[...\"]:3: unfinished long comment (starting at line 1) near <eof>"},
            {"x = '\\u{7FFFFFFF}'", "[string \"x = '\\u{7FFFFFFF}'\"]:1: UTF-8 value too large near ''\\u{7FFFFF'"},
            {"x = \200", "[string \"x = \200\"]:1: unexpected symbol near '<\\128>'"},
            {"x = $", "[string \"x = $\"]:1: unexpected symbol near '$'"},
            {"x = `", "[string \"x = `\"]:1: unexpected symbol near '`'"},
            {"x = ?", "[string \"x = ?\"]:1: unexpected symbol near '?'"},
            {"x = !", "[string \"x = !\"]:1: unexpected symbol near '!'"},
            {"x = 1 -- comment\n y y", "[string \"x = 1 -- comment...\"]:2: syntax error near 'y'"},
            {"a = b = c", "[string \"a = b = c\"]:1: unexpected symbol near '='"},
            {"local function f() end end", "[string \"local function f() end end\"]:1: <eof> expected near 'end'"},
            {"do end end", "[string \"do end end\"]:1: <eof> expected near 'end'"},
            {"if x then end end", "[string \"if x then end end\"]:1: <eof> expected near 'end'"},
            {"x = 1 )", "[string \"x = 1 )\"]:1: unexpected symbol near ')'"},
            {"x = {", "[string \"x = {\"]:1: unexpected symbol near <eof>"},
            {"x = {,}", "[string \"x = {,}\"]:1: unexpected symbol near ','"},
            {"x = {;}", "[string \"x = {;}\"]:1: unexpected symbol near ';'"},
            {"x = {1,,2}", "[string \"x = {1,,2}\"]:1: unexpected symbol near ','"},
            {"f(1)(2)[3] = 4 5", "[string \"f(1)(2)[3] = 4 5\"]:1: unexpected symbol near '5'"},
            {"f(1)(2)[3]", "[string \"f(1)(2)[3]\"]:1: syntax error near <eof>"},
            {"local a, = 1", "[string \"local a, = 1\"]:1: <name> expected near '='"},
            {"local a.b = 1", "[string \"local a.b = 1\"]:1: unexpected symbol near '.'"},
            {"function f(a b) end", "[string \"function f(a b) end\"]:1: ')' expected near 'b'"},
            {"function f() return end x", "[string \"function f() return end x\"]:1: syntax error near <eof>"},
            {"return; x", "[string \"return; x\"]:1: <eof> expected near 'x'"},
            {"return;;", "[string \"return;;\"]:1: <eof> expected near ';'"},
            {"function f(...) local function g() return ... end end", "[string \"function f(...) local function g() return ......\"]:1: cannot use '...' outside a vararg function near '...'"},
            {"for i = 1, 2 do goto cont end ::cont::", "OK"},
            {"do ::l:: end goto l", "[string \"do ::l:: end goto l\"]:1: no visible label 'l' for <goto> at line 1"},
            {"::l:: do goto l end", "OK"},
            {"local x goto l ::l::", "OK"},
            {"goto l local x ::l:: x = 1", "[string \"goto l local x ::l:: x = 1\"]:1: <goto l> at line 1 jumps into the scope of local 'x'"},
            {"do goto l local x ::l:: end", "OK"},
            {"repeat goto l local x ::l:: until x", "[string \"repeat goto l local x ::l:: until x\"]:1: <goto l> at line 1 jumps into the scope of local 'x'"},
            {"if a then goto l end local x ::l:: print(x)", "[string \"if a then goto l end local x ::l:: print(x)\"]:1: <goto l> at line 1 jumps into the scope of local 'x'"},
            {"x = 'abc\\\015\ndef' y", "[string \"x = 'abc\\\015...\"]:2: syntax error near <eof>"},
        };
        return Arrays.stream(cases).map(c -> Arguments.of(c[0], c[1]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void messageAsPuc(String source, String expected) {
        assertEquals(expected, compileMessage(source, source));
    }
}

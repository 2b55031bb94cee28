-- Generates the expectation tables of dev.luavm.stdlib.string.*OracleTest from PUC-Rio
-- Lua 5.3.6 (the reference for every behaviour and message). Not a test: the JUnit tests
-- carry the generated expectations and need no Lua to run. Regenerate with
--   lua5.3 gen_string_oracle.lua <section>   (basics | patterns | format | pack)
-- and paste the output into the matching test's cases() method.

local section = arg[1]

local function render1(v)
  local t = type(v)
  if t == "string" then
    return '"' .. v:gsub('[\\"]', '\\%0'):gsub('[^\32-\126]', function(c)
      return string.format("\\%03d", c:byte()) end) .. '"'
  elseif math.type(v) == "integer" then return tostring(v)
  elseif t == "number" then return "f:" .. string.format("%.17g", v)
  else return tostring(v) end
end

local function render(r, from, to)
  local out = {}
  for i = from, to do out[#out + 1] = render1(r[i]) end
  return table.concat(out, " ")
end

local function javaString(s)
  return '"' .. s:gsub('[\\"]', '\\%0'):gsub("[^\32-\126]", function(c)
    if c == "\n" then return "\\n" elseif c == "\r" then return "\\r" end
    return string.format("\\u%04x", c:byte()) end) .. '"'
end

local function javaArg(v)
  local t = type(v)
  if t == "string" then return "s(" .. javaString(v) .. ")"
  elseif math.type(v) == "integer" then
    if v == math.mininteger then return "Long.MIN_VALUE" end
    return tostring(v) .. "L"
  elseif t == "number" then
    if v == math.huge then return "Double.POSITIVE_INFINITY"
    elseif v == -math.huge then return "Double.NEGATIVE_INFINITY"
    elseif v ~= v then return "Double.NaN" end
    return string.format("%a", v)
  elseif t == "nil" then return "null"
  else return tostring(v) end
end

local N = setmetatable({}, {__index = function(_, k) return k:upper() end})

-- case(fname, args...) prints: check(FNAME, "expected", args);
local function case(fname, ...)
  local args = table.pack(...)
  local r = table.pack(pcall(string[fname], table.unpack(args, 1, args.n)))
  local expected = r[1] and render(r, 2, r.n) or ("error: " .. tostring(r[2]))
  local jargs = {}
  for i = 1, args.n do jargs[#jargs + 1] = javaArg(args[i]) end
  print(string.format("        check(%s, %s%s);", N[fname], javaString(expected),
    #jargs > 0 and (", " .. table.concat(jargs, ", ")) or ""))
end

local function gmatchCase(s, p)
  local parts = {}
  local ok, err = pcall(function()
    for a, b, c in string.gmatch(s, p) do
      local t = table.pack(a, b, c)
      local n = t.n while n > 0 and t[n] == nil do n = n - 1 end
      parts[#parts + 1] = render(t, 1, n)
      if #parts > 50 then break end
    end
  end)
  local expected = ok and table.concat(parts, " | ") or ("error: " .. err:gsub("^.-:%d+: ", ""))
  print(string.format("        checkGmatch(%s, %s, %s);", javaString(expected), javaArg(s), javaArg(p)))
end

local sections = {}

function sections.basics()
  for _, a in ipairs{{"abc"}, {""}, {123}, {1.5}} do case("len", table.unpack(a)) end
  case("len")
  local subs = {{2}, {-2}, {0}, {2, 1}, {-100, 100}, {math.mininteger, math.maxinteger}, {2, -2},
    {4}, {3, 3}, {-1, -1}, {1, 0}, {math.maxinteger}, {-3, 2}, {"2", "3"}, {2.0}}
  for _, a in ipairs(subs) do case("sub", "abc", table.unpack(a)) end
  case("sub", "abc", 3.5)
  case("sub", "abc")
  case("sub", "abc", "x")
  case("sub", 12345, 2, 3)
  case("upper", "aBc\200z{@[`") case("lower", "AbC\200Z{@[`") case("upper", "") case("lower", 1.5)
  case("reverse", "abc") case("reverse", "") case("reverse", "a\0b")
  case("rep", "x", 3) case("rep", "x", 3, "ab") case("rep", "x", 0) case("rep", "x", -1)
  case("rep", "ab", 3.0) case("rep", "ab", 2.5) case("rep", "x", 2^40) case("rep", "x", 2^31)
  case("rep", "", 5) case("rep", "", 5, "-") case("rep", "x", 1, "sep") case("rep", "x", 2^30, "yy")
  case("rep", "x", math.mininteger) case("rep") case("rep", "x") case("rep", "abc", 2, 7)
  case("rep", "x", math.maxinteger) case("rep", "", math.maxinteger, "a")
  case("byte", "abc") case("byte", "abc", 0) case("byte", "abc", -1) case("byte", "abc", 1, -1)
  case("byte", "abc", 10) case("byte", "abc", -10, 10) case("byte", "abc", 2, 1)
  case("byte", "\255\0", 1, 2) case("byte", "abc", 1, 2^40) case("byte", "") case("byte", "abc", 1.5)
  case("byte", "abc", math.mininteger, math.maxinteger)
  case("char", 72, 105) case("char") case("char", 256) case("char", -1) case("char", "65")
  case("char", 0, 255) case("char", 65, 1.5) case("char", 65, nil) case("char", 65.0)
end

function sections.patterns()
  local finds = {
    {"abc", "%"}, {"abc", "[a"}, {"abc", "[a%"}, {"abc", "[]"}, {"abc", "[^]"}, {"a]c", "[]]"},
    {"abc", "%f"}, {"abc", "%fa"}, {"abc", "%1"}, {"abc", "(a)%2"}, {"abc", "(a%1)"},
    {"abc", "(a"}, {"abc", "%b"}, {"abc", "%ba"}, {"abc", "b", 10}, {"abc", "", 4},
    {"abc", "", 5}, {"abc", "", -10}, {"a.c", ".", 1, true}, {"abc", "c", -1},
    {"THE (quick) fox", "%((%a+)%)"}, {"a+b", "+", 1}, {"a+b", "a+", 1, true}, {"", ""},
    {"", "^$"}, {"aaa", "a", 0}, {"a", "(()"}, {"a", "%g"}, {"a\0b", "%z"}, {"a\0b", "\0", 1, true},
    {"abc", "[b-]"}, {"a-c", "[b-]"}, {"THE END", "%f[%A]", 5}, {"abc", "b", nil, nil},
    {"hello world", "o w"}, {"hello", "l+"}, {"hello", "^h"}, {"hello", "^e"}, {"hello", "o$"},
    {"a$b", "$b"}, {"abc", "[%a-]+"}, {"x^y", "^", 1, true}, {"abc", "^abc$"},
    {"aaa", "a-", 2}, {"abcabc", "(b)(c)", 3}, {"abc", "abcd"}, {"abc", "bc", -2},
    {"abc", "()", 4}, {"abc", "x*", 4}, {"ab\0cd", "[\0]"}, {"ab\0cd", "%Z+"},
    {"  x", "%S"}, {"a1_B", "%W"}, {"\t\n x", "%s+"}, {"hello", ".-l"}, {"hello", ".*l"},
    {"a.b", "%."}, {"a%b", "%%"}, {"[x]", "[[]"}, {"a-b", "[a%-b]+"}, {"f(a(b)c)d", "%b()"},
    {"f(a(b)c", "%b()"}, {"if x then y end", "%bie"}, {"abc", "%f[%l]"}, {"ABC", "%f[%l]"},
    {"x", "[%]"}, {"x", "[a-%%]"}, {"-", "[%a-]"}, {"abc", "[^%a]"}, {"ab1", "[^%a]"},
    {string.rep("a", 300), string.rep("(a)", 33)}, {string.rep("a", 300), string.rep("a?", 300)},
    {"abc", "%"}, {"abc", "%c"}, {"\1\2x", "%c+"}, {"3.14e5", "%d+%.%d+[eE]%d+"},
    {"0xFF", "%x+", 3}, {"AbC", "%u%l%u"}, {"a,b;c", "%p"}, {"caps", "%U+"},
  }
  for _, a in ipairs(finds) do case("find", table.unpack(a)) end
  case("find", "x") case("find")
  local matches = {
    {"abc", "(a"}, {"abc", "()b()"}, {"hello world", "%w+", 7}, {"  x", "^%s*(.-)%s*$"},
    {"f(a(b)c)d", "%b()"}, {"key = value", "(%w+)%s*=%s*(%w+)"}, {"x", "[%a-z]"}, {"-", "[a-]"},
    {"]", "[]]"}, {"^", "[%^]"}, {"a^", "a^"}, {"a$b", "a$b"}, {"\0abc", "%z"}, {"abc\0", "[%z]"},
    {"aaa", "a-b"}, {"aaab", "a-b"}, {"x = 1", "()=()"}, {"abc", "((a)(b))"}, {"1234", "%d%d?%d?"},
    {"abc", "a)"}, {"a", "%f[a]"}, {"THE END", "%f[%z]"}, {" abc ", "%f[%w]%w+%f[%W]"},
    {"[[x]]", "%[(%b[])%]"}, {"abcabc", "(abc)%1"}, {"abcabd", "(abc)%1"}, {"xyx", "(x)(y)%1"},
    {"aa", "()%1"}, {"date: 2024-01-31", "(%d+)-(%d+)-(%d+)"}, {"abc", "(a)(b)(c)"},
    {"abc", "a(.-)c"}, {"abc", "(.)"}, {"abc", ".", -1}, {"abc", ".", 5}, {"abc", "$"},
    {"abc", "b*", 4}, {"a\nb", "a.b"}, {"<<a>>", "<(.-)>"}, {"<<a>>", "<(.*)>"},
    {string.rep("a", 300), string.rep("(", 250) .. "a" .. string.rep(")", 250)},
    {string.rep("a", 40), string.rep("(a)", 32)}, {"abc", "(()())"}, {"a1b2", "%a%d%a%d"},
    {"x", "%"}, {"x", "(%"}, {"x", "%f[a"}, {"x", "[a-"}, {"x", "%bx"}, {"x", "%1"}, {"xx", "(x)%0"},
  }
  for _, a in ipairs(matches) do case("match", table.unpack(a)) end
  local gsubs = {
    {"abc", "(a", "x"}, {"abc", "a", "%2"}, {"abc", "a", "%x"}, {"abc", "a", "%"},
    {"abc", "(a)", "%1%0%%"}, {"abc", "()a", "%1"}, {"abc", "a", 1.5}, {"abc", "a", nil},
    {"abc", "a", 7}, {"abc", "", "-"}, {"abc", "b*", "-"}, {"abc", "^a*", "-"},
    {"abc", "%w", "%0%0", 2}, {"abc", "%w", "x", -1}, {"abc", "%w", "x", 1.5}, {"abc", "b", "x", 0},
    {"a b c", "%s", "_"}, {"hello world", "(o)", "[%1]", 1}, {"abc", "%w*", "-"},
    {"hello world", "o*", "X"}, {"abc", "(", "x"}, {"abc", "", "%0"}, {"abc", "%f[%w]", "|"},
    {"THE (quick) fox", "%f[%a]%a+", "W"}, {"abc", "a", true}, {"x", "x"}, {"abc", "^", ">"},
    {"abc", "$", "<"}, {"abc", "^b", "x"}, {"aaa", "^a", "b"}, {"abc", ".", "%1"}, {"abc", "(.)(.)", "%2%1"},
    {"abc", "a", "%%"}, {"abc", "a", "\0"}, {"a.b.c", ".", "%%"}, {"hello", "l", "L", 1},
    {"hello", "l", "L", math.maxinteger}, {"hello", "l", "L", math.mininteger},
    {"abc", "[", "x"}, {"abc", "(b", "%1"}, {"x y z", "(%w)", "<%1>"}, {"abc", "b", "%9"},
    {"abc", "((b))", "%3"}, {"", "", "x"}, {"", "x*", "y"}, {"12", "%d", "%0%0%0"},
  }
  for _, a in ipairs(gsubs) do case("gsub", table.unpack(a)) end
  local gm = {
    {"abc", "%w*"}, {"^a^a", "^a"}, {"k=v, x=y", "(%w+)=(%w+)"}, {"abc", "()"}, {"one two  three", "%a+"},
    {"abc", ""}, {"a,b,,c", "([^,]*)"}, {"abc", "(a"}, {"abc", "%"}, {"hello", "l*"}, {"", "x*"},
    {"a1b22c333", "%d+"}, {"a1b22c333", "(%a)(%d+)"}, {"abc", "."}, {"aaa", "a-"},
  }
  for _, a in ipairs(gm) do gmatchCase(table.unpack(a)) end
end

function sections.format()
  local F = function(...) case("format", ...) end
  F("%u", 3) F("%y", 3) F("%F", 3) F("%d", 3.5) F("%d", "3") F("%d", 2^63) F("%-----d", 1)
  F("%100d", 1) F("%.100d", 1) F("%99.99f", -1e308) F("%q", 1.0) F("%q", 0.5) F("%q", -0.0)
  F("%q", 1/0) F("%q", -1/0) F("%q", math.mininteger) F("%q", "a\0b\0001\r\n\"\\\1\127\200")
  F("%q", nil) F("%q", true) F("%q", false) F("%10q", "x") F("%a %A %a %a %a", 3, 1, 0.1, -0.0, 1e-320)
  F("%.3a %10a %-12a| %+a %#a", 1/3, 1, 1, 1, 1) F("%5s|%-5s|%.2s", "ab", "ab", "abc")
  F("%5s", "a\0b") F("%s", "a\0b") F("%.1s", "a\0b") F("%5.1s", string.rep("x", 200))
  F("%5s", string.rep("x", 200)) F("%.3s", string.rep("x", 200)) F("%c%c", 65, 0) F("%5c|%-5c", 65, 66)
  F("%x %X %o %#x %#o %08.3x", 255, 255, 8, 255, 8, 5) F("%x", -1) F("%d %i %+d % d %05d %-5d|", 1, 2, 3, 4, -5, 6)
  F("%e %E %.0e %#.0e %g %G %#g", 12345.678, 0.000123, 5.5, 5.5, 1e20, 1e-20, 1)
  F("%f %.0f %.0f %.0f %#.0f %.20f", 1/3, 0.5, 1.5, 2.5, 2, 0.1) F("%f %e %g %a", 1/0, -1/0, 1/0, 1/0)
  F("%5.2f|%-10.3e|%+.3g", 3.14159, 3.14159, 3.14159) F("%d") F("%d %d", 1) F("%") F("abc%") F("%", 1)
  F("%5", 1) F("%.", 1) F("%s %s", 1, 1.5) F("%d", "x") F("%f", "x") F("%.99f", 1) F("%099d", 1)
  F("%-+ #0d", 1) F("%-+ #0-d", 1) F("% +d", 1) F("%.3d", 7) F("%ld", 7) F("%c", 256) F("%c", -1)
  F("%i", 1.0) F("%x", 1.5) F("%u", -1) F("%5.3s|", "abcdef") F("%.0s|", "abcdef") F("%s", nil) F("%s")
  F("%d", nil) F("%10.4f|%-10.2e|%010.3f|% f|%+e", 3.14159265, 2.5e-10, -3.5, 1, 0)
  F("%g %g %g %g %g", 100000, 1000000, 1e-4, 1e-5, 0.0001234567) F("%.0g %.1g %#.3g %g", 0.5, 15, 1, -0.0)
  F("%5.1g|%-8g|%08g", 2.55, 1.5, -1.5) F("%a %a %a", 2^-1074, 1.7976931348623157e308, 0.1 + 0.2)
  F("%.0a %.1a %.20a", 1.5, 1.96875, 0.1) F("%.0a %.0a %.1a", 2.5, 3.5, 1.03125)
  F("%08a|%-10A|%+.2A", 1.5, -2.0, 0.1) F("%.3a", 2^-1074) F("%q", "\r\t\0009\0") F("%q", 255) F("%q", -3)
  F("%q", 1e100) F("%q", 2^63) F("%x", 3.0) F("%c", 65.0) F("%o", -1) F("%#X %#5x %-#8o|", 0, 0, 0)
  F("%+5x % x %+u", 10, 10, 10) F("%.0d %.0x|", 0, 0) F("%5.3d|%-5.3d|%05.3d", -7, 7, 7) F("%e", 0)
  F("%.14g", 2^53) F("%f", 1e300) F("%.3f %.2f %.1f", 0.0005, 0.125, 0.25) F("%5%") F("%5%", 1) F("%%%d", 5)
  F("[%05s][%05c][%012a][%-012a][%+012.3a][%#o][%#.0o][%#x][%#08x]", "ab", 65, 1.5, 1.5, -1.5, 8, 0, 0, 255)
  F("[%012f][%-+8.2f][% 08.2f][%08.3e][%+g][% g][%#.3g][%010g]", -1.5, 1.5, 1.5, 12.5, 1.5, 1.5, 100, -1/0)
  F("[%10.3s][%-10s][%.10s]", "abcdef", "abc", "abc") F("%.3g|%.10g|%g|%g|%.0e|%.1e", 0.0001, 1/3, 1e15, 123456789, 0.5, 0.25)
  F("%5.2x|%-5.2o|%05x|%+05d|%+.0d|% .0d|", 1, 1, 1, 1, 0, 0) F("%e|%.3E|%g", 1e-310, 5e-324, 5e-324)
  F("%5.1f|%.1f|%.1f", 0.05, 0.15, 0.25) F("%.0f|%.0f", 1e15 + 0.5, 2^70) F("%q", "\0001\0a\0")
  F("%-5d|%-05d|%5.0f|%#5.0e|%#x", 3, 3, 2.5, 2.5, -1) F("%d", math.mininteger) F("%x", math.mininteger)
  F("%5d|%-5d|%05d", math.mininteger, math.maxinteger, -1) F("%.14g|%.17g|%.3g", 0.1, 0.1, 1e-300)
  F("%g|%g|%g|%g", 1e-5, 123456, 1234567, 0.00001234) F("%#g|%#.0f|%#.0e|%#x|%#o", 0.0, 0.0, 0.0, 1, 1)
  F("%.2e|%.2e|%.2e", 9.995, 9.985, 1.005) F("%.1f|%.1f|%.1f|%.1f", 0.95, 0.85, -0.05, -0.0)
  F("%G|%E", 1e-10, 1e100) F("%.50f", 2^-60) F("%s|%s|%s", true, false, 12) F("%s", -0.0)
  F("%20.10s|", "hello world, long") F("%-20.10s|", "hello world, long") F("no specs") F("%%") F("a%%b%%")
  F("%c", "65") F("%d", " 10 ") F("%d", "0x10") F("%f", "1e2") F("%x", "1.0") F("%d", "1.5")
  F("%.14g", 100) F("%5.0f|%5.0f", 0.5, -0.5) F("%+.1e|% .1e", -0.0, 0.0) F("%A", -0.0) F("%.0a", 0)
  F("%#.0a|%#a", 1, 0) F("%.13a|%.14a", 1/3, 1/3) F("%.12a", 1/3) F("%a", 2^-1022) F("%a", 2^-1023)
  F("%.1a", 2^-1074 * 3) F("%g", 2^63) F("%.20g", 2^63) F("%f", 2^63) F("%.0f", 0.5 + 2^-53)
end

function sections.pack()
  local P = function(...) case("pack", ...) end
  P("i4", 100) P(">i4", 100) P("i3", -2) P("i17", 1) P("i0", 1) P("i16", -2) P(">i16", -2) P("I16", 2)
  P("b", 128) P("b", -129) P("B", 256) P("B", -1) P("h", 32768) P("H", 65535) P("j", math.mininteger)
  P("J", -1) P("T", 5) P("l L", 1, 2) P("f", 1.5) P(">d", 1.5) P("n", 2) P("s", "abc") P("s1", "abc")
  P("s1", string.rep("x", 256)) P("z", "abc") P("z", "a\0c") P("c5", "abc") P("c2", "abc") P("c", "abc")
  P("x") P("!4 b i4", 1, 2) P("!b i4", 1, 2) P("!3 i4", 2) P("!4 i3", 2) P("b Xi4 b", 1, 2)
  P("!8 b Xi8 b", 1, 2) P("b X", 1) P("b Xc1", 1) P("b Xz", 1) P("y", 1) P("i4", 1.5) P("i4", "12")
  P("i4") P("=i2<i2>i2", 1, 1, 1) P("\1") P("i999999999999", 1) P("c999999999999", "") P("i4", 2^31)
  P("I4", 2^32) P("i8", 2^63) P(" < i1 ", 5) P("Xb") P("i4 X", 1) P("!2 h", 1) P("!x", 1) P("c0", "")
  P("i4 s2", 1, "xy") P("i2\0i2", 1, 2) P("!16 b i16", 1, -1) P(">I5", 0x0102030405) P("<i9", -1)
  P(">i9", math.mininteger) P("I1 I2 I3", 255, 65535, 16777215) P("i1", -128) P("i2", -32769)
  P("I3", 16777216) P("f d", 0.1, 0.1) P("<f", 1/0) P(">n", -0.0) P("!4 b f", 1, 2) P("!8 b d", 1, 2)
  P("!8 b j !2 i8", 1, 2, 3) P("s16", "x") P("s3", "") P("z z", "", "a") P("B", "255") P("bX", 1)
  P("Xi2", 1) P("b!2Xh", 7) P("<h>h=h", 0x0102, 0x0102, 0x0102) P("j", 1.0) P("c3", 7) P("x x x")
  P("i4i4", 1) P("z") P("d") P("bbbbbb", 1, 2, 3)
  local S = function(...) case("packsize", ...) end
  S("i4 i8 !8 d") S("s") S("z") S("c2147483647 c2") S("!4 b i4 b X") S("") S("b Xi4") S("!17")
  S("!16 i16 b Xi16") S(string.rep("c214748364", 11)) S(string.rep("c214748364", 9)) S("b h i l j f d n T")
  S("!b h i l j f d n T") S("c10 x X") S("i3 !4 i3") S("y") S("<>=! ") S("c0") S("Xc1")
  local U = function(...) case("unpack", ...) end
  U("i4", string.pack("i4", -5)) U("i4", "abc") U("i4", "abcd", 2) U("i4", "abcd", 5) U("i4", "abcd", 6)
  U("b", "abcd", -1) U("b", "abcd", -10) U("z", "abc") U("z", "abc\0d") U("s1", "\5abc") U("s1", "\3abc")
  U("c2 c0", "abc") U("i16", string.rep("\255", 16)) U("i16", string.rep("\255", 8) .. string.rep("\0", 8))
  U("I9", string.rep("\255", 9)) U("i9", "\1\0\0\0\0\0\0\128\255") U("I16", string.rep("\0", 15) .. "\1")
  U("f", string.pack("f", 0.1)) U(">I3 <I3", "\1\2\3\1\2\3") U("!4 b i4", string.pack("!4 b i4", 1, 2))
  U("b x b", "\1\2\3") U("", "") U("i4") U("j", string.pack("j", math.maxinteger))
  U("d n", string.pack("d n", 1/0, -0.0)) U("z", "") U("c1", "") U("B b", "\255\255") U(">h <h", "\1\2\1\2")
  U("i3 I3", "\255\255\255\255\255\255") U("z z z", "a\0b\0c\0") U("z b", "abc\0\7") U("s2", "\2\0hi!")
  U(">s2", "\0\2hi") U("s2", "\9\0hi") U("i4", "abcd", 0) U("i4", "abcd", -4) U("b", "", 1) U("", "abc", 4)
  U("", "abc", 5) U("x", "") U("!4 b Xi4 b", "\1\0\0\0\2") U("d", string.pack(">d", 1.5)) U("<d", string.pack("<d", 1.5))
  U("i17", "") U("y", "a") U("I8", "\255\255\255\255\255\255\255\255") U("i2", "\0\128") U("j", "12345678", 1.5)
  U("s8", string.pack("s8", "hello")) U("i16", string.rep("\0", 7) .. "\128" .. string.rep("\255", 8))
  U("I16", string.rep("\0", 7) .. "\128" .. string.rep("\0", 8)) U(">i16", string.rep("\255", 9) .. "\127" .. string.rep("\0", 6))
  U("c3 z", "abcdef\0") U(" = c3", "xyz") U("c4", "xyz")
end

sections[section]()

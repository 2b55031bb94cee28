print(1 + 2, 1 - 2.5, 3 * 4, 7 / 2, 7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 % 2, -7.5 % 2, 2 ^ 10)
print(math_maxint + 1 == math_minint, math_minint // -1, math_minint % -1)
print(1 // 0.0, -1 // 0.0, 0/0 ~= 0/0, 5 % math_huge, -5 % math_huge)
print(3 & 5, 3 | 5, 3 ~ 5, ~0, 1 << 63, 1 << 64, -1 >> 1, -1 >> 64, 1 << -1, 2 >> -1)
print("10" + 1, "3" * "4", "0x10" + 0, "1e1" + 0, 10 .. 20, 1.5 .. "", -0.0 .. "")
print(2^53 == 2^53 + 1, 9007199254740993 < 9007199254740992.0, 9007199254740993 > 2^53, 1 == 1.0, math_maxint < 2^63, math_maxint + 0.0 == 2^63)
print(1 < 2, 1 <= 1.0, "a" < "b", "abc" < "abd", "" < "a", "Z" < "a", 2 > 1.5, not nil, not 0)
print(1e15, 1e16, 123456789012, 0.1, -0.0, 1e100, 2^63, 100 // 1.0)
print(#"abc", #{1, 2, 3}, #{n = 1})
local a, b, c = (function() return 1, 2, 3 end)()
print(a, b, c, select('#', (function() return 1, 2, 3 end)()))
local t = {(function() return 1, 2, 3 end)(), (function() return 4, 5 end)()}
print(#t, t[1], t[2], t[3])
local function va(...) local x, y = ... return select('#', ...), x, y, ... end
print(va(1, nil, 3))
print(va())
local s = 0
for i = 10, 1, -3 do s = s + i end
print(s)
for i = 1, 3 do local x = i * 2 s = s + x end
print(s)
for i = 1.0, 2.0, 0.5 do io_write(i) end
print()
for i = 1, 0 do print("never") end
for i = 3, 1e100 do io_write(i) if i > 5 then break end end
print()
print(pcall(function() for i = 1, "x" do end end))
print(pcall(function() for i = {}, 1 do end end))
print(pcall(function() for i = 1, 2, nil do end end))
local n = 0
while n < 10 do n = n + 1 if n == 5 then break end end
print(n)
repeat n = n - 1 until n == 0
print(n)
goto skip
print("skipped")
::skip::
print(type(nil), type(1), type("x"), type({}), type(print), type(true))

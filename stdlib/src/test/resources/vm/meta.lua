local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({v = a.v + b.v}, V) end
V.__sub = function(a, b) return "sub" end
V.__unm = function(a) return "unm" end
V.__len = function(a) return 42 end
V.__eq = function(a, b) return a.v == b.v end
V.__lt = function(a, b) return a.v < b.v end
V.__le = function(a, b) return a.v <= b.v end
V.__concat = function(a, b) return "cat" end
V.__call = function(self, x) return "called " .. tostring(x) end
V.__tostring = function(a) return "V(" .. a.v .. ")" end
V.__idiv = function() return "idiv" end
V.__band = function() return "band" end
V.__shl = function() return "shl" end
V.__bnot = function() return "bnot" end
V.__mod = function() return "mod" end
V.__pow = function() return "pow" end
V.__div = function() return "div" end
function V.get(self) return self.v end
local a, b = setmetatable({v = 1}, V), setmetatable({v = 2}, V)
print((a + b).v, a - b, -a, #a, a == b, a ~= b, a < b, a <= b, a > b, a >= b)
print(a .. b, a .. "x", "x" .. a, 1 .. a, a(5), tostring(a), a:get())
print(a // 1, a & 1, 1 << a, ~a, a % 2, a ^ 2, a / 2)
local c = setmetatable({v = 1}, V)
print(a == c, rawequal(a, c))
local LT = {__lt = function(x, y) return true end}
local p, q = setmetatable({}, LT), setmetatable({}, LT)
print(p <= q, pcall(function() return p <= 1 end))
local log = {}
local proxy = setmetatable({}, {__index = function(t, k) log[#log + 1] = k return k .. "!" end,
  __newindex = function(t, k, v) rawset(t, k, v * 2) end})
print(proxy.a, proxy.b, #log)
proxy.x = 21
print(rawget(proxy, "x"), proxy.x)
local chain = setmetatable({}, {__index = setmetatable({a = 1}, {__index = {b = 2}})})
print(chain.a, chain.b, chain.c)
local s = setmetatable({}, {__concat = function(x, y) return (type(x) == "table" and "T" or x) .. (type(y) == "table" and "T" or y) end})
print("a" .. s .. "b" .. s .. "c")
print(getmetatable(setmetatable({}, {__metatable = "locked"})))
print(tostring(setmetatable({}, {__name = "My.Type"})):sub(1, 9))

local co = coroutine.create(function(a, b)
  print("start", a, b)
  local c = coroutine.yield(a + b)
  print("got", c)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print(coroutine.resume(co, 1, 2))
print(coroutine.status(co))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.status(co), coroutine.resume(co))
local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)
print(gen(), gen(), gen())
for v in coroutine.wrap(function() coroutine.yield("a") coroutine.yield("b") end) do io_write(v) end
print()
-- yield across pcall
local co2 = coroutine.wrap(function()
  local ok, v = pcall(function() local x = coroutine.yield(1) error("after " .. x) end)
  coroutine.yield(tostring(ok) .. " " .. v)
  return "end"
end)
print(co2(), co2("resumed"), co2())
-- yield inside metamethods
local mt = {__index = function(t, k) return coroutine.yield(k) end,
  __add = function(a, b) return coroutine.yield("add") end,
  __lt = function(a, b) return coroutine.yield("lt") end,
  __concat = function(a, b) return coroutine.yield("concat") end,
  __eq = function(a, b) return coroutine.yield("eq") end,
  __len = function(a) return coroutine.yield("len") end,
  __newindex = function(t, k, v) coroutine.yield("newindex") rawset(t, k, v) end}
local co3 = coroutine.wrap(function()
  local o = setmetatable({}, mt)
  local o2 = setmetatable({}, mt)
  local r1 = o.foo
  local r2 = o + 1
  local r3 = o < o2
  local r4 = "a" .. o .. "b"
  local r5 = o == o2
  local r6 = #o
  o.z = 5
  return r1, r2, r3, r4, r5, r6, rawget(o, "z")
end)
print(co3())
print(co3("v1"))
print(co3("v2"))
print(co3(true))
print(co3("C"))
print(co3(false))
print(co3(7))
print(co3())
print(coroutine.isyieldable(), coroutine.running())
print(select(2, coroutine.resume(coroutine.create(function() return coroutine.isyieldable() end))))
print(coroutine.resume(coroutine.create(function() error("in co") end)))
print(coroutine.resume(coroutine.create(function() error({}) end)) == false)
print(pcall(coroutine.wrap(function() error("wrapped") end)))
local dead = coroutine.wrap(function() end) dead()
print(pcall(dead))
print(pcall(coroutine.yield, 1))
local self
self = coroutine.create(function() return coroutine.resume(self) end)
print(coroutine.resume(self))
print(coroutine.resume(coroutine.create(function() return coroutine.status(coroutine.running()) end)))
local outer = coroutine.create(function()
  local inner = coroutine.create(function() return coroutine.status(outer) end)
  return coroutine.resume(inner)
end)
print(coroutine.resume(outer))

-- closures stored in a table act like an object
local function make(start)
  local v = start
  return {
    inc = function() v = v + 1 end,
    get = function() return v end,
  }
end
local o1, o2 = make(0), make(100)
o1.inc(); o1.inc(); o2.inc()
print(o1.get(), o2.get())

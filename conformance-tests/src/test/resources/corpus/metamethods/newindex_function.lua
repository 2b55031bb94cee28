-- __newindex as a function is called only for absent keys
local log = {}
local t = setmetatable({existing = 1}, {__newindex = function(tbl, k, v)
  log[#log + 1] = k .. "=" .. tostring(v)
  rawset(tbl, k, v * 10)
end})
t.existing = 2
t.new = 3
t.new = 4
print(t.existing, t.new)
print(table.concat(log, ","))

-- rawget/rawset bypass __index and __newindex
local t = setmetatable({}, {
  __index = function() return "meta" end,
  __newindex = function() error("blocked") end,
})
rawset(t, "k", "raw")
print(t.k, rawget(t, "other"), t.other)
print(pcall(function() t.z = 1 end))

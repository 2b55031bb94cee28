-- table functions in 5.3 respect __index/__newindex/__len
local log = {}
local proxy = setmetatable({}, {
  __len = function() return 2 end,
  __index = function(_, k) return "v" .. k end,
  __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. v end,
})
table.insert(proxy, "new")
print(table.concat(log, " "))
print(table.concat(proxy, ","))

-- __pairs replaces the iteration done by pairs
local t = setmetatable({}, {__pairs = function(self)
  local i = 0
  return function()
    i = i + 1
    if i <= 3 then return i, i * i end
  end, self, nil
end})
for k, v in pairs(t) do print(k, v) end

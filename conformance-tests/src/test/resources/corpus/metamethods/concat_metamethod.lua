-- __concat is used when either operand is not a string or number
local mt = {__concat = function(a, b)
  local function s(x) return type(x) == "table" and "T" or tostring(x) end
  return s(a) .. "+" .. s(b)
end}
local t = setmetatable({}, mt)
print(t .. "x")
print("x" .. t)
print(1 .. t)
print("a" .. "b" .. t)

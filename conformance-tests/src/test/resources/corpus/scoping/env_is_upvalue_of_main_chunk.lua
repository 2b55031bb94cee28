-- changing _ENV inside a function affects later global accesses in it
local function f()
  local _ENV = {tostring = tostring}
  g = 1
  return tostring(g)
end
print(f(), g)

-- two closures created in the same scope share the upvalue
local function pair()
  local v = 0
  local function get() return v end
  local function set(x) v = x end
  return get, set
end
local get, set = pair()
set(42)
print(get())

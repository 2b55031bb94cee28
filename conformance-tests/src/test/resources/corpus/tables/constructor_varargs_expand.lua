-- '...' as the last constructor item expands; in the middle it is one value
local function f(...)
  local all = {...}
  local first = {..., "end"}
  return #all, #first, first[2]
end
print(f("a", "b", "c"))

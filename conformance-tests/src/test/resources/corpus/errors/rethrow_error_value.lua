-- a caught error can be rethrown unchanged with level 0 semantics for tables
local ok, e = pcall(function()
  local ok2, e2 = pcall(error, {tag = "T"})
  error(e2)
end)
print(ok, e.tag)

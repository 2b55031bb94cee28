-- inner pcall catches the error; the outer call succeeds
print(pcall(function()
  local ok, e = pcall(error, "inner", 0)
  return "outer saw: " .. tostring(ok) .. " " .. e
end))

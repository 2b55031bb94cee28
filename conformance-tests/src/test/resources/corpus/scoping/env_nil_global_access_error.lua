-- with _ENV = nil, accessing a global is an index error on upvalue/local _ENV
print(pcall(function()
  local _ENV = nil
  return x
end))

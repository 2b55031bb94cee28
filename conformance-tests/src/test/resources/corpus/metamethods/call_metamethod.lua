-- __call makes a table callable; the table is the first argument
local callable = setmetatable({name = "obj"}, {__call = function(self, a, b)
  return self.name, a + b
end})
print(callable(1, 2))
print(pcall(callable, 3, 4))
